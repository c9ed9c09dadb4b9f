// Terminal modes xterm's public `term.modes` does not expose but the server
// needs: mouse encoding (DECSET 1005/1006/1015), cursor visibility (DECTCEM)
// and shape (DECSCUSR), and the kitty keyboard protocol's flags. Handlers
// observe and return false so xterm's own handling still runs.

import type { Terminal } from "@xterm/headless";

export type MouseEncoding = "default" | "utf8" | "sgr" | "urxvt";

/** The modes that decide how keys, pastes and mouse reports are encoded for a pane's program. */
export interface PaneInputModes {
  applicationCursorKeys: boolean;
  applicationKeypad: boolean;
  bracketedPaste: boolean;
  mouseTracking: "none" | "x10" | "vt200" | "drag" | "any";
  mouseEncoding: MouseEncoding;
  sendFocus: boolean;
  /** The kitty keyboard protocol's flags the program set; ws encodes 1 (disambiguate) and 8 (all keys as escape codes). */
  kittyFlags: number;
  /** xterm's modifyOtherKeys level the program set (`CSI > 4 ; n m`): 0, 1 or 2. */
  modifyOtherKeys: number;
}

/** Everything a pane's program has set that the daemon reads: input modes and the cursor's look. */
export interface ScreenModes extends PaneInputModes {
  cursorHidden: boolean;
  cursorShape: number;
  /** The cursor colour the program set (OSC 12), as it wrote it; undefined: the terminal's own. */
  cursorColor?: string;
  /** While the program is in synchronized output (`?2026h`, until `?2026l`): when it entered it
   * (Date.now(), a clock the emulator worker shares); frames hold its cells meanwhile. */
  synchronizedSince?: number;
}

export interface ExtraModes {
  mouseEncoding: MouseEncoding;
  cursorHidden: boolean;
  /** DECSCUSR parameter: 0/1 blinking block, 2 block, 3/4 underline, 5/6 bar. */
  cursorShape: number;
  /** The kitty keyboard protocol's flag stacks, one per screen (kittyFlags reads the top). */
  kitty?: { main: number[]; alt: number[] };
  cursorColor?: string;
  /** xterm's modifyOtherKeys level (`CSI > 4 ; n m`). */
  modifyOtherKeys?: number;
  /** When synchronized output (?2026) was last entered; xterm's own flag says whether it still is. */
  syncSince?: number;
}

/** Entries a kitty flag stack keeps; a push past it drops the oldest (as the protocol says). */
const KITTY_STACK_MAX = 16;

/** The kitty keyboard flags a pane's program has set on the screen it shows (0: legacy keys). */
export function kittyFlags(term: Terminal, m: Pick<ExtraModes, "kitty"> | undefined): number {
  const stack = m?.kitty?.[term.buffer.active.type === "alternate" ? "alt" : "main"];
  return stack?.[stack.length - 1] ?? 0;
}

/**
 * The kitty keyboard protocol's requests (CSI > f u push, CSI < n u pop, CSI = f ; mode u set),
 * kept per screen as kitty does, so a full-screen program that exits without popping leaves the
 * shell's keys as they were. The query (CSI ? u) is answered with the flags of the screen shown.
 */
function trackKitty(term: Terminal, m: ExtraModes, reply: (s: string) => void): void {
  const k = (m.kitty = { main: [0], alt: [0] });
  const stack = () => k[term.buffer.active.type === "alternate" ? "alt" : "main"];
  const num = (p: (number | number[])[], i: number, dflt: number) => {
    const v = p[i];
    const n = typeof v === "number" ? v : v?.[0];
    return n === undefined || n < 0 ? dflt : n;
  };
  term.parser.registerCsiHandler({ prefix: ">", final: "u" }, (p) => {
    const s = stack();
    s.push(num(p, 0, 0) & 31);
    if (s.length > KITTY_STACK_MAX) s.shift();
    return true;
  });
  term.parser.registerCsiHandler({ prefix: "<", final: "u" }, (p) => {
    const s = stack();
    s.splice(Math.max(0, s.length - Math.max(1, num(p, 0, 1))));
    if (!s.length) s.push(0);
    return true;
  });
  term.parser.registerCsiHandler({ prefix: "=", final: "u" }, (p) => {
    const s = stack();
    const f = num(p, 0, 0) & 31;
    const mode = num(p, 1, 1);
    const top = s[s.length - 1]!;
    s[s.length - 1] = mode === 2 ? top | f : mode === 3 ? top & ~f : f;
    return true;
  });
  term.parser.registerCsiHandler({ prefix: "?", final: "u" }, () => {
    reply(`\x1b[?${kittyFlags(term, m)}u`);
    return true;
  });
}

/** xterm's key modifier options, `CSI > Pp ; Pv m`: only modifyOtherKeys (Pp 4) changes what ws
 * sends; `CSI > 4 m` (no value) resets it, as do RIS and DECSTR. */
function trackModifyOtherKeys(term: Terminal, m: ExtraModes): void {
  m.modifyOtherKeys = 0;
  term.parser.registerCsiHandler({ prefix: ">", final: "m" }, (p) => {
    const resource = typeof p[0] === "number" ? p[0] : p[0]?.[0];
    if (resource !== 4 && p.length) return true;
    const v = typeof p[1] === "number" ? p[1] : p[1]?.[0];
    m.modifyOtherKeys = v === 1 || v === 2 ? v : 0;
    return true;
  });
}

/** Follow the modes; `reply` takes the answers to the queries about them (the kitty flags). */
export function trackModes(term: Terminal, reply: (s: string) => void = () => {}): ExtraModes {
  const m: ExtraModes = { mouseEncoding: "default", cursorHidden: false, cursorShape: 0 };
  const set = (params: (number | number[])[], on: boolean) => {
    for (const p of params) {
      const n = typeof p === "number" ? p : p[0];
      if (n === 25) m.cursorHidden = !on;
      else if (n === 2026 && on && !term.modes.synchronizedOutputMode) m.syncSince = Date.now();
      else if (n === 1006) m.mouseEncoding = on ? "sgr" : m.mouseEncoding === "sgr" ? "default" : m.mouseEncoding;
      else if (n === 1005) m.mouseEncoding = on ? "utf8" : m.mouseEncoding === "utf8" ? "default" : m.mouseEncoding;
      else if (n === 1015) m.mouseEncoding = on ? "urxvt" : m.mouseEncoding === "urxvt" ? "default" : m.mouseEncoding;
    }
    return false;
  };
  term.parser.registerCsiHandler({ prefix: "?", final: "h" }, (p) => set(p, true));
  term.parser.registerCsiHandler({ prefix: "?", final: "l" }, (p) => set(p, false));
  term.parser.registerCsiHandler({ intermediates: " ", final: "q" }, (p) => {
    const n = typeof p[0] === "number" ? p[0] : 0;
    m.cursorShape = n ?? 0;
    return false;
  });
  trackKitty(term, m, reply);
  trackModifyOtherKeys(term, m);
  const reset = () => {
    m.mouseEncoding = "default";
    m.cursorHidden = false;
    m.cursorShape = 0;
    m.cursorColor = undefined;
    m.kitty!.main = [0];
    m.kitty!.alt = [0];
    m.modifyOtherKeys = 0;
    return false;
  };
  term.parser.registerEscHandler({ final: "c" }, reset); // RIS
  term.parser.registerCsiHandler({ intermediates: "!", final: "p" }, reset); // DECSTR
  return m;
}

/** Current input modes of an xterm Terminal plus our tracked extras. */
export function modesOf(term: { modes: Terminal["modes"]; buffer: { active: { type: string } } }, extra: Pick<ExtraModes, "mouseEncoding" | "kitty" | "modifyOtherKeys">): PaneInputModes {
  const t = term.modes;
  return {
    applicationCursorKeys: t.applicationCursorKeysMode,
    applicationKeypad: t.applicationKeypadMode,
    bracketedPaste: t.bracketedPasteMode,
    mouseTracking: t.mouseTrackingMode,
    mouseEncoding: extra.mouseEncoding,
    sendFocus: t.sendFocusMode,
    kittyFlags: kittyFlags(term as Parameters<typeof kittyFlags>[0], extra),
    modifyOtherKeys: extra.modifyOtherKeys ?? 0,
  };
}
