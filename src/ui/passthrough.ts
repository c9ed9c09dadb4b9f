// What a pane's program says to the terminal outside that is not its screen, passed on to the
// user's terminal as tmux does: the bell (tmux's bell-action), the clipboard (OSC 52, off unless
// keys.toml has `clipboard = "on"`, tmux's set-clipboard), the window title (keys.toml
// `titles = true`, tmux's set-titles) and the cursor colour (OSC 12), both from the focused pane.
// A pane that rings while it is not on screen marks its tab until it is shown.
import type { Pane } from "../model/pane";
import { unsafeChars } from "../safe-text";

export interface PassthroughSettings {
  /** Forward a program's OSC 52 (clipboard writes) to the user's terminal. */
  clipboard?: boolean;
  /** Set the user's terminal's title from the focused pane. */
  titles?: boolean;
}

/** Clipboard bytes waiting for the next frame, at most (a copy past it waits for none). */
const PENDING_MAX = 1024 * 1024;
/** The longest title sent. */
const TITLE_MAX = 256;

export class Passthrough {
  private pending = "";
  /** A bell waits for the next frame (one per frame, however many rang). */
  private ring = false;
  /** What the user's terminal has now, as sent (undefined: nothing sent to this client yet). */
  private title: string | undefined;
  private cursorColor: string | null | undefined;

  /** `rang`: panes that rang while off screen, their tab marked until they are shown; one set that
   * every attached client's passthrough shares. */
  constructor(
    private readonly settings: PassthroughSettings,
    private readonly rang = new Set<number>(),
  ) {}

  /** A new client: it has none of what was sent before. */
  attached(): string {
    this.title = undefined;
    this.cursorColor = undefined;
    this.pending = "";
    this.ring = false;
    // Keep the user's own title, to be put back on detach (xterm's title stack).
    return this.settings.titles ? "\x1b[22;2t" : "";
  }

  /** What to send before the client goes: its own title and cursor colour back. */
  detaching(): string {
    let out = "";
    if (this.cursorColor) out += "\x1b]112\x07";
    if (this.settings.titles && this.title !== undefined) out += "\x1b[23;2t";
    this.title = this.cursorColor = undefined;
    return out;
  }

  bell(pane: number, shown: boolean): void {
    this.ring = true;
    if (!shown) this.rang.add(pane);
  }

  clipboard(data: string): void {
    if (!this.settings.clipboard) return;
    const osc = `\x1b]52;${data}\x07`;
    if (this.pending.length + osc.length <= PENDING_MAX) this.pending += osc;
  }

  /** A pane of `panes` rang while off screen. */
  marked(panes: number[]): boolean {
    return this.rang.size > 0 && panes.some((p) => this.rang.has(p));
  }

  forget(pane: number): void {
    this.rang.delete(pane);
  }

  /** The bytes for the user's terminal before the next frame; `shown` panes lose their mark. */
  take(focused: Pane | undefined, shown: Iterable<number>): string {
    for (const p of shown) this.rang.delete(p);
    let out = this.pending + (this.ring ? "\x07" : "");
    this.pending = "";
    this.ring = false;
    if (this.settings.titles && focused) {
      const t = focused.label.replace(unsafeChars(), "").slice(0, TITLE_MAX);
      if (t !== this.title) {
        out += `\x1b]2;${t}\x07`;
        this.title = t;
      }
    }
    // The emulator keeps only colours without control characters (emulator-passthrough.ts).
    const cc = focused?.emulator.modes.cursorColor ?? null;
    if (cc !== this.cursorColor && !(cc === null && this.cursorColor === undefined)) {
      out += cc ? `\x1b]12;${cc}\x07` : "\x1b]112\x07";
      this.cursorColor = cc;
    }
    return out;
  }
}
