// `ship` at the interface's command line (prefix :, or a key bound to a ship line) asks first:
// the workstreams feature works out what would be committed and pushed, changing nothing, the
// status line asks y/n, and only y ships (docs/workstreams.md, Ship). n, Esc or any other key
// leaves everything as it was.
import type { ShipQuestion, ShipRequest } from "../features/workstreams/ship-ask";
import type { Interface } from "./interface";

function say(ui: Interface, text: string): void {
  ui.message = text;
  ui.invalidate();
}

/** The request a ship line's fields make, about the focused pane's workstream unless --name. */
export function shipRequest(fields: Record<string, unknown>, pane: number | undefined): ShipRequest {
  const name = typeof fields.name === "string" ? fields.name : undefined;
  return {
    ...(name !== undefined ? { name } : pane !== undefined ? { pane } : {}),
    ...(typeof fields.message === "string" ? { message: fields.message } : {}),
    push: fields.push === true,
    pr: fields.pr === true,
    draft: fields.draft === true,
  };
}

function put(ui: Interface, q: ShipQuestion): void {
  const back = ui.servedLater();
  // Another prompt opened while git looked: that one keeps the keys, nothing is shipped.
  if (ui.prompt) return say(ui, "ws ship: not asked, another prompt is open; nothing was changed");
  ui.confirm(
    q.question,
    () => {
      say(ui, "shipping…");
      q.go().then(
        (r) => back(() => (typeof r === "string" ? say(ui, r) : put(ui, r))),
        (e) => back(() => say(ui, `ws ship: ${(e as Error).message}`)),
      );
    },
    () => say(ui, "not shipped: nothing was changed"),
  );
}

/** Ask, then ship on y; a refusal (nothing to commit, no -m) shows on the status line instead. */
export function askShip(ui: Interface, ask: (p: ShipRequest) => Promise<ShipQuestion>, p: ShipRequest): void {
  say(ui, "ws ship: looking at the worktree…");
  // The question goes to the client that asked.
  const back = ui.servedLater();
  ask(p).then(
    (q) =>
      back(() => {
        ui.message = undefined;
        put(ui, q);
      }),
    (e) => back(() => say(ui, `ws ship: ${(e as Error).message}`)),
  );
}
