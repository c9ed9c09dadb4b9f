import { PANE_START_ERRORS, defineMessage } from "./types";

export default defineMessage({
  type: "pane_respawn",
  since: 6,
  grant: "self",
  request: true,
  reply: "pane",
  replyFields: { pane: { type: "integer", description: "The pane (its id is kept)" } },
  summary: "Start a program in a pane again, same id, its screen and history kept (tmux respawn-pane -k): a kept pane whose program exited, or a running one, which is hung up on first.",
  fields: {
    pane: { type: "integer", required: true, description: "The pane" },
    command: { type: "string[]", description: "The program and its arguments. Absent or empty: the command it was started with" },
    cwd: { type: "string", description: "Where it starts. Default: where it started before" },
  },
  errors: ["pane_not_found", ...PANE_START_ERRORS],
  example: { v: 6, id: 1, type: "pane_respawn", pane: 5, command: ["make", "test"] },
  cli: { path: "pane respawn", summary: "Run a program in a pane again, same id (a running one is hung up on first)", args: ["pane"], rest: "command", defaults: { pane: "$WS_PANE_ID" }, view: "pane" },
  handle(p, { session }) {
    const pane = session.respawnPane(p.pane, { argv: p.command?.length ? p.command : undefined, cwd: p.cwd });
    return { type: "pane", pane: pane.id };
  },
});
