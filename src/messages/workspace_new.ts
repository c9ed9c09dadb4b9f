import { WsError } from "../protocol/errors";
import { PANE_START_ERRORS, defineMessage, ok } from "./types";

export default defineMessage({
  type: "workspace_new",
  since: 2,
  grant: "control",
  request: true,
  reply: "ok",
  summary: "Create a workspace with one shell tab, in the background.",
  fields: {
    name: { type: "string", name: true, required: true, description: "The workspace's name" },
    exists_ok: { type: "boolean", default: false, description: "Succeed if a workspace with this name exists. Names are compared ignoring case" },
  },
  errors: ["workspace_exists", ...PANE_START_ERRORS],
  example: { v: 2, type: "workspace_new", name: "Games", exists_ok: true },
  cli: { path: "workspace new", args: ["name"] },
  handle({ name, exists_ok }, { session }) {
    const found = session.findWorkspace(name);
    if (found) {
      if (exists_ok) return ok();
      throw new WsError(`workspace "${found.name}" exists`, "workspace_exists", { param: "exists_ok" });
    }
    session.newWorkspace(name);
    return ok();
  },
});
