// The interface's one attached client: attaching (a second attach replaces the first), driving
// the user's terminal, and letting go of it (detach, quit, the connection gone). What the
// terminal was told to do (its modes, focus reports, passthrough state) is set and undone here.

import type { Connection } from "../protocol/connection";
import type { TermEvent } from "../protocol/events";
import type { ExitNotice } from "../protocol/frames";
import { AttachedClient, type ClientLog } from "./attached-client";
import { OuterModes, PaneFocus } from "./outer-modes";
import type { Passthrough } from "./passthrough";
import type { AttachParams } from "../features/services";
import type { TerminalReport } from "../protocol/terminal-report";

export interface ClientHooks {
  /** An event from the current client. */
  event(c: AttachedClient, ev: TermEvent): void;
  /** The current client went away by itself (its connection closed). */
  gone(): void;
  /** What the attached terminal said about itself (its colours); undefined: no terminal now. */
  terminal(r: TerminalReport | undefined): void;
}

export class ClientSlot {
  client: AttachedClient | undefined;
  /** The attached client's $TERM, when it sent a sane one. */
  term: string | undefined;
  /** The attached terminal's XTVERSION answer, once it has given one. */
  version: string | undefined;
  /** The user's terminal's mouse and keypad modes, following the focused pane. */
  readonly outerModes = new OuterModes();
  /** Focus in/out reports to panes as the focus moves. */
  readonly paneFocus = new PaneFocus();

  constructor(
    private readonly passthrough: Passthrough,
    private readonly log: ClientLog,
    private readonly hooks: ClientHooks,
  ) {}

  /** Take a new client, replacing the one attached. */
  attach(req: AttachParams, conn: Connection): AttachedClient {
    const old = this.client;
    if (old) {
      this.client = undefined;
      old.exit({ reason: "replaced", message: "attached from another terminal" });
    }
    const c = new AttachedClient(
      conn,
      (ev) => this.hooks.event(c, ev),
      (gone) => {
        if (this.client === gone) {
          this.client = undefined;
          this.hooks.gone();
          this.paneFocus.detached();
          this.noTerminal();
        }
      },
      this.log,
    );
    this.client = c;
    this.outerModes.reset();
    this.term = req.term !== undefined && /^[\x21-\x7e]{1,128}$/.test(req.term) ? req.term : undefined;
    // Until the new terminal answers, panes hear the defaults, not the last one's colours.
    this.noTerminal();
    c.onTerminal = (r) => {
      if (this.client !== c) return;
      this.version = r.version;
      this.hooks.terminal(r);
    };
    if (req.tty) c.driveTerminal(req.tty, req.tty_id, req.keys === "ask", this.term);
    c.send(this.passthrough.attached());
    return c;
  }

  private noTerminal(): void {
    this.version = undefined;
    this.hooks.terminal(undefined);
  }

  /** Let the client go with `notice`, its terminal put back as it was. */
  detach(notice: ExitNotice): void {
    const c = this.client;
    this.client = undefined;
    c?.send(this.passthrough.detaching());
    c?.exit(notice);
    if (c) this.paneFocus.detached();
    if (c) this.noTerminal();
  }

  /** Raw bytes for the client's terminal outside the grid (OSC 52, notifications). */
  send(s: string): void {
    this.client?.send(s);
  }
}
