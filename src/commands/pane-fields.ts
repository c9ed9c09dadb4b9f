// Fields every message that starts a pane shares (tab_new, split, open_tab; layout leaves take the
// same two keys).
import { envProblem } from "../model/env-vars";
import { typed, type FieldSpec } from "../protocol/schema";

export const KEEP_FIELD = {
  type: "boolean",
  default: false,
  description: "Keep the pane after its program exits, showing `[exited: status N]` (or the signal) on its last line, readable until closed (tmux remain-on-exit); `pane_respawn` runs it again",
} as const satisfies FieldSpec;

export const ENV_FIELD = typed<Record<string, string>>()({
  type: "object",
  keyValue: true,
  check: (v) => envProblem(v),
  shape: '{"NAME": "value", …}',
  description: "Environment variables for the program, over the server's own; ws's own (WS_SOCKET, WS_PANE_ID, WS_WORKSPACE, PWD) win. Names [A-Za-z_][A-Za-z0-9_]*, values without NUL (docs/limits.md)",
});
