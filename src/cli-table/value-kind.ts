// What values a command's argument or flag takes, from its name, type and command: the one rule
// the shell completions (src/cli/completion.ts) and Tab at `prefix :` (src/ui/command-line.ts)
// both follow, so they offer the same things.
import type { Command, Param } from "./spec";

/** What an argument's values are: "-" none offered, "file", "command", "ws-command" (a ws command's
 * name), "=a,b" these, or a dynamic KIND. */
export type ValueKind = string;
/** The kinds whose values only the running server or ws's files know. */
export const DYNAMIC_KINDS = ["pane", "workspace", "tab", "tab-id", "template", "project", "host", "server"] as const;

/** The values a positional argument or flag takes, from its name, type and command. */
export function valueKind(c: Command, p: Param): ValueKind {
  if (p.accepted?.length) return "=" + p.accepted.join(",");
  if (c.path === "help" && !p.flag) return "ws-command";
  const key = p.flag ?? p.field;
  const integer = p.type === "integer" || p.type === "integer[]";
  if (integer && ["pane", "with", "beside", "panes"].includes(key)) return "pane";
  if (key === "tab") return integer ? "tab-id" : "tab";
  if (key === "workspace" || (c.path.startsWith("workspace ") && c.path !== "workspace new" && p.field === "name" && !p.flag)) return "workspace";
  if (key === "template" || (c.path === "templates show" && p.field === "name")) return "template";
  if (key === "project" || (c.path.startsWith("project ") && c.path !== "project new" && !p.flag && (p.field === "slug" || p.field === "old"))) return "project";
  if (key === "host") return "host";
  if (["cwd", "file", "repo", "location", "socket-path"].includes(key) || p.type === "object") return "file";
  return "-";
}
