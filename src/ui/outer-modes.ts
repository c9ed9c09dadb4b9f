// The user's terminal follows the focused pane where what the pane asked for changes what the
// terminal sends: any-motion mouse reports (?1003, so hover reaches a pane that wants it) and the
// application keypad (DECKPAM, so the keypad's keys arrive as ESC O … and stay keypad keys).
// The attach client's own setup turns on clicks, drags and SGR coordinates (?1000, ?1002, ?1006)
// for ws itself, and its restore turns all of these off again on detach.
//
// Focus events go to panes the way a terminal sends them to a program: when the focus moves from
// one ws pane to another, the pane left gets CSI O and the pane focused CSI I (each only if it
// asked, ?1004), as well as when the user's terminal gains or loses focus. Turning the reports on
// is not a change of focus and is told nothing, as in tmux (3.3a's default `focus-events off`,
// and every later tmux): a CSI I then reaches Emacs as input and wipes its start-up message.

import type { Pane } from "../model/pane";
import type { PaneInputModes } from "../model/key-encoder";

/** What ws has asked of the user's terminal beyond the attach client's setup. */
interface OuterState {
  anyMotion: boolean;
  keypad: boolean;
  /** ws's own mouse reports (clicks, drags, SGR): off with keys.toml `mouse = false` or `set -g
   * mouse off`, so a drag is the user's terminal's own selection, as tmux's mouse off. */
  mouse: boolean;
}

/** The attach client's setup: ws's mouse reports on (src/client/attach.ts ENTER). */
const CLIENT_SETUP: OuterState = { anyMotion: false, keypad: false, mouse: true };

/** The mode changes a frame carries to the user's terminal, so it follows the focused pane. */
export class OuterModes {
  /** What the terminal has now: the attach client's setup until a frame says otherwise. */
  private sent: OuterState = { ...CLIENT_SETUP };

  /** A new terminal (an attach): it has only the client's setup. */
  reset(): void {
    this.sent = { ...CLIENT_SETUP };
  }

  /** The bytes that bring the terminal to what `modes` (the focused pane's) and the `mouse`
   * setting need; "" if it is there. */
  update(modes: PaneInputModes | undefined, mouse = true): string {
    const want: OuterState = { anyMotion: mouse && modes?.mouseTracking === "any", keypad: !!modes?.applicationKeypad, mouse };
    let out = "";
    if (want.mouse !== this.sent.mouse) out += want.mouse ? "\x1b[?1000h\x1b[?1002h\x1b[?1006h" : "\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?1006l";
    if (want.anyMotion !== this.sent.anyMotion && !(want.anyMotion === false && !want.mouse && this.sent.mouse)) out += want.anyMotion ? "\x1b[?1003h" : "\x1b[?1003l";
    if (want.keypad !== this.sent.keypad) out += want.keypad ? "\x1b=" : "\x1b>";
    this.sent = want;
    return out;
  }
}

/** Focus in/out reports for panes, as focus moves between them and as the user's terminal's changes. */
export class PaneFocus {
  /** The pane that last got (or would have got) a focus-in. */
  private focused: Pane | undefined;
  /** Whether the user's terminal has focus (assumed until it says otherwise). */
  private outerFocused = true;

  /** The focused pane now: a move tells the pane left and the pane focused. */
  sync(pane: Pane | undefined): void {
    if (pane === this.focused) return;
    const before = this.focused;
    this.focused = pane;
    if (!this.outerFocused) return;
    if (before && before !== pane) report(before, false);
    if (pane) report(pane, true);
  }

  /** The user's terminal gained or lost focus: the focused pane hears of it. */
  outer(gained: boolean, pane: Pane | undefined): void {
    this.outerFocused = gained;
    this.focused = pane;
    if (pane) report(pane, gained);
  }

  /** The client went away: the focused pane has lost focus, and the next attach starts anew. */
  detached(): void {
    if (this.focused && this.outerFocused) report(this.focused, false);
    this.focused = undefined;
    this.outerFocused = true;
  }
}

function report(pane: Pane, focusIn: boolean): void {
  if (pane.exited || !pane.emulator.modes.sendFocus) return;
  pane.write(focusIn ? "\x1b[I" : "\x1b[O");
}
