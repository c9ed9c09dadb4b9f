// The values Tab offers for an argument at `prefix :` (pane ids, workspace and tab names,
// templates, projects), read from the server's own model and ws's files: what the shell
// completion asks the server for (ws completion --values KIND), without a connection.
import type { Session } from "../model/session";
import type { ValuesOf } from "./command-line";
import { listTemplates } from "../features/workstreams/templates";
import { listSlugs } from "../features/projects/store";

/** Values for one prompt: templates are read (asynchronously) when it opens, the rest at each Tab. */
export function promptValues(session: Session): ValuesOf {
  let templates: string[] = [];
  listTemplates().then(
    (list) => {
      templates = list.map((t) => t.name);
    },
    () => {},
  );
  const unique = (xs: (string | number)[]) => [...new Set(xs.map(String))].filter((x) => x !== "");
  const tabs = () => session.workspaces.flatMap((w) => w.tabs);
  return (kind) => {
    switch (kind) {
      case "pane":
        return unique([...session.panes.keys()].sort((a, b) => a - b));
      case "workspace":
        return unique(session.workspaces.map((w) => w.name));
      case "tab":
        return unique(tabs().map((t) => session.tabName(t)));
      case "tab-id":
        return unique(tabs().map((t) => t.id));
      case "template":
        return templates;
      case "project":
        return listSlugs();
      default:
        return [];
    }
  };
}
