// Raw terminal input bytes → crossterm Event JSON. Follows crossterm's
// parse.rs closely (so a crossterm client and ours send the same events),
// plus xterm modifyOtherKeys and rxvt mouse. Stateful: a sequence split
// across reads is held until the rest arrives; a lone ESC is held until the
// caller's short timeout calls flush().

import {
  type KeyCode, type KeyKind, type MouseButton, type MouseKind, type TermEvent,
  keyEvent, formatMods, MEDIA_KEYS, MODIFIER_KEYS, SHIFT, CONTROL, ALT, SUPER, HYPER, META, KEYPAD, CAPS_LOCK, NUM_LOCK,
} from "./events";
import type { TerminalReply } from "./key-protocol";

export { ESC_TIMEOUT_MS } from "./terminal-defaults";

const ESC = 0x1b;
const PASTE_END = [0x1b, 0x5b, 0x32, 0x30, 0x31, 0x7e]; // ESC [ 2 0 1 ~
const dec = new TextDecoder();

// Result of trying to parse one event at the head of the buffer.
// `reply`: the bytes were the terminal's answer to ws's keyboard query (key-protocol.ts), not a key.
type Step = { n: number; ev: TermEvent | null; reply?: TerminalReply } | "more";

export class InputParser {
  private buf: number[] = [];
  private paste: number[] | null = null;
  private pasteScan = 0; // where to resume looking for the end marker

  /** `onReply` hears the terminal's answers to KEYS_QUERY; without it they are dropped, as any reply. */
  constructor(private readonly onReply?: (r: TerminalReply) => void) {}

  /** Feed raw bytes; returns every event completed by them. */
  feed(chunk: Uint8Array | string): TermEvent[] {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    for (const b of bytes) this.buf.push(b);
    return this.drain(false);
  }

  /** True when nothing is held: no sequence half read, no paste being collected. */
  get idle(): boolean {
    return this.buf.length === 0 && this.paste === null;
  }

  /** True when bytes are held that a timeout should resolve (e.g. a lone ESC). */
  get pending(): boolean {
    return this.buf.length > 0 && this.paste === null;
  }

  /** The ESC timeout fired: whatever is held is taken as typed (ESC → Esc key). */
  flush(): TermEvent[] {
    return this.drain(true);
  }

  private drain(final: boolean): TermEvent[] {
    const out: TermEvent[] = [];
    while (this.buf.length) {
      if (this.paste) {
        if (!this.takePaste(out)) break;
        continue;
      }
      const s = parseOne(this.buf, final);
      if (s === "more") break;
      if (s.ev && typeof s.ev === "object" && "Paste" in s.ev) {
        // Start marker: switch to collecting until the end marker.
        this.buf.splice(0, s.n);
        this.paste = [];
        continue;
      }
      this.buf.splice(0, s.n);
      if (s.ev) out.push(s.ev);
      else if (s.reply) this.onReply?.(s.reply);
    }
    if (final && this.buf.length && !this.paste) this.buf = []; // undecodable leftovers
    return out;
  }

  // Move paste bytes across; true when the end marker was seen.
  private takePaste(out: TermEvent[]): boolean {
    const p = this.paste!;
    for (const b of this.buf) p.push(b);
    this.buf = [];
    const at = indexOf(p, PASTE_END, this.pasteScan);
    if (at < 0) {
      // The marker may be split across reads: rescan only its possible start.
      this.pasteScan = Math.max(0, p.length - PASTE_END.length + 1);
      return false;
    }
    this.pasteScan = 0;
    const rest = p.slice(at + PASTE_END.length);
    out.push({ Paste: dec.decode(new Uint8Array(p.slice(0, at))) });
    this.paste = null;
    this.buf = rest;
    return true;
  }
}

function indexOf(hay: number[], needle: number[], from: number): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const PASTE_START: TermEvent = { Paste: "" };

function parseOne(b: number[], final: boolean): Step {
  const c = b[0]!;
  if (c === ESC) {
    if (b.length === 1) return final ? { n: 1, ev: keyEvent("Esc") } : "more";
    const c1 = b[1]!;
    if (c1 === 0x5b /* [ */) {
      const r = parseCsi(b);
      if (r === "more" && final) return { n: 2, ev: keyEvent({ Char: "[" }, ALT) };
      return r;
    }
    if (c1 === 0x4f /* O */) {
      if (b.length === 2) return final ? { n: 2, ev: keyEvent({ Char: "O" }, ALT | SHIFT) } : "more";
      const f = String.fromCharCode(b[2]!);
      const code = SS3[f];
      if (code) return { n: 3, ev: keyEvent(code) };
      // The keypad in application mode (DECKPAM, which ws passes on from the focused pane).
      const kp = SS3_KEYPAD[f];
      if (kp) return { n: 3, ev: kp === "Enter" ? keyEvent("Enter", 0, "Press", KEYPAD) : keyEvent({ Char: kp }, 0, "Press", KEYPAD) };
      return { n: 3, ev: null };
    }
    // The terminal's answers to TERMINAL_QUERY (terminal-report.ts): an OSC (ESC ] digits …) or
    // XTVERSION's DCS (ESC P > | …). Unended by the ESC timeout, they are keys after all (M-]).
    if (c1 === 0x5d /* ] */ || c1 === 0x50 /* P */) {
      const r = parseString(b, final);
      if (r !== undefined) return r;
    }
    // ESC ESC: the first is the Esc key, whatever follows. Two Escs typed at once are two keys,
    // and ESC ESC [ A is Esc then Up, as tmux 3.3 reads them.
    if (c1 === ESC) return { n: 1, ev: keyEvent("Esc") };
    // ESC + key = Alt + key.
    const inner = parseOne(b.slice(1), final);
    if (inner === "more") return "more";
    let ev = inner.ev;
    if (ev && typeof ev === "object" && "Key" in ev) {
      const mods = modBits(ev.Key.modifiers) | ALT;
      ev = { Key: { ...ev.Key, modifiers: formatMods(mods) } };
    }
    return { n: inner.n + 1, ev };
  }
  if (c === 0x0d) return { n: 1, ev: keyEvent("Enter") };
  if (c === 0x0a) return { n: 1, ev: keyEvent({ Char: "j" }, CONTROL) }; // raw mode: \n is Ctrl-J
  if (c === 0x09) return { n: 1, ev: keyEvent("Tab") };
  if (c === 0x7f) return { n: 1, ev: keyEvent("Backspace") };
  if (c === 0x00) return { n: 1, ev: keyEvent({ Char: " " }, CONTROL) };
  if (c >= 0x01 && c <= 0x1a) return { n: 1, ev: keyEvent({ Char: String.fromCharCode(c - 1 + 0x61) }, CONTROL) };
  // FS GS RS US are Ctrl+\ ] ^ _ (the character + 0x40), as xterm, kitty and tmux read them;
  // crossterm's Ctrl+4…7 would reach a program in modifyOtherKeys or kitty mode as the wrong key.
  if (c >= 0x1c && c <= 0x1f) return { n: 1, ev: keyEvent({ Char: String.fromCharCode(c + 0x40) }, CONTROL) };
  if (c < 0x80) return { n: 1, ev: charEvent(String.fromCharCode(c)) };
  // UTF-8 character.
  const len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  if (b.length < len) return final ? { n: b.length, ev: null } : "more";
  const ch = dec.decode(new Uint8Array(b.slice(0, len)));
  if (ch === "\ufffd" && len > 1 && !validCont(b, len)) return { n: 1, ev: null };
  return { n: len, ev: charEvent(ch) };
}

/** The longest answer string ws reads; past it the bytes are keys (no asked-for answer is longer). */
const MAX_REPLY_STRING = 1024;
const XTVERSION_HEAD = [0x1b, 0x50, 0x3e, 0x7c]; // ESC P > |

/** An OSC or XTVERSION answer at the head of `b`: the reply, "more" while it may still be one,
 * undefined when it is not one (then ESC starts an Alt key). */
function parseString(b: number[], final: boolean): Step | undefined {
  const osc = b[1] === 0x5d;
  // An OSC answer starts with its number; the body is everything after ESC ] (or ESC P > |).
  const head = osc ? 2 : XTVERSION_HEAD.length;
  if (osc ? b.length > 2 && !(b[2]! >= 0x30 && b[2]! <= 0x39) : XTVERSION_HEAD.some((h, i) => i < b.length && b[i] !== h)) return undefined;
  for (let i = head; i < b.length && i < MAX_REPLY_STRING; i++) {
    const c = b[i]!;
    const end = c === 0x07 && osc ? 1 : c === 0x1b && b[i + 1] === 0x5c ? 2 : 0;
    if (end) {
      const body = String.fromCharCode(...b.slice(head, i));
      return { n: i + end, ev: null, reply: osc ? { osc: body } : { xtversion: body } };
    }
    if (c === 0x1b && i + 1 === b.length) break; // ESC at the end: ST may be split
    if (c < 0x20 && c !== 0x1b) return undefined; // a control byte: not an answer
  }
  return final || b.length >= MAX_REPLY_STRING ? undefined : "more";
}

function validCont(b: number[], len: number) {
  for (let i = 1; i < len; i++) if ((b[i]! & 0xc0) !== 0x80) return false;
  return true;
}

function charEvent(ch: string, mods = 0, kind: KeyKind = "Press", state = 0): TermEvent {
  // crossterm: an upper-case Char carries SHIFT.
  if (ch.length === 1 && ch !== ch.toLowerCase() && ch === ch.toUpperCase()) mods |= SHIFT;
  return keyEvent({ Char: ch }, mods, kind, state);
}

function modBits(s: string): number {
  let m = 0;
  for (const p of s.split(" | ")) m |= ({ SHIFT, CONTROL, ALT, SUPER, HYPER, META } as Record<string, number>)[p] ?? 0;
  return m;
}

const SS3: Record<string, KeyCode> = {
  A: "Up", B: "Down", C: "Right", D: "Left", H: "Home", F: "End",
  P: { F: 1 }, Q: { F: 2 }, R: { F: 3 }, S: { F: 4 },
};

/** SS3 forms of the keypad's keys in application mode: ESC O p is 0 … ESC O y is 9. */
const SS3_KEYPAD: Record<string, string> = {
  p: "0", q: "1", r: "2", s: "3", t: "4", u: "5", v: "6", w: "7", x: "8", y: "9",
  n: ".", k: "+", m: "-", j: "*", o: "/", l: ",", X: "=", M: "Enter",
};

const CSI_FINAL: Record<string, KeyCode> = {
  A: "Up", B: "Down", C: "Right", D: "Left", H: "Home", F: "End", E: "KeypadBegin",
  P: { F: 1 }, Q: { F: 2 }, R: { F: 3 }, S: { F: 4 },
};

const TILDE: Record<number, KeyCode> = {
  1: "Home", 2: "Insert", 3: "Delete", 4: "End", 5: "PageUp", 6: "PageDown", 7: "Home", 8: "End",
  11: { F: 1 }, 12: { F: 2 }, 13: { F: 3 }, 14: { F: 4 }, 15: { F: 5 }, 17: { F: 6 }, 18: { F: 7 },
  19: { F: 8 }, 20: { F: 9 }, 21: { F: 10 }, 23: { F: 11 }, 24: { F: 12 }, 25: { F: 13 }, 26: { F: 14 },
  28: { F: 15 }, 29: { F: 16 }, 31: { F: 17 }, 32: { F: 18 }, 33: { F: 19 }, 34: { F: 20 },
};

// xterm/kitty modifier parameter: value-1 is a bit mask.
function decodeMods(p: number | undefined): { mods: number; state: number } {
  if (!p || p < 1) return { mods: 0, state: 0 };
  const m = p - 1;
  let mods = 0, state = 0;
  if (m & 1) mods |= SHIFT;
  if (m & 2) mods |= ALT;
  if (m & 4) mods |= CONTROL;
  if (m & 8) mods |= SUPER;
  if (m & 16) mods |= HYPER;
  if (m & 32) mods |= META;
  if (m & 64) state |= CAPS_LOCK;
  if (m & 128) state |= NUM_LOCK;
  return { mods, state };
}

const KIND: Record<number, KeyKind> = { 1: "Press", 2: "Repeat", 3: "Release" };

function parseCsi(b: number[]): Step {
  if (b.length < 3) return "more";
  const c2 = b[2]!;
  // X10 mouse: ESC [ M Cb Cx Cy, each +32.
  if (c2 === 0x4d && b.length >= 3) {
    if (b.length < 6) return "more";
    return { n: 6, ev: mouseEvent(b[3]! - 32, b[4]! - 33, b[5]! - 33, false, true) };
  }
  // Find the final byte.
  let i = 2;
  while (i < b.length && b[i]! >= 0x20 && b[i]! <= 0x3f) i++;
  if (i >= b.length) return b.length > 256 ? { n: b.length, ev: null } : "more";
  const fin = b[i]!;
  const n = i + 1;
  if (fin < 0x40 || fin > 0x7e) return { n, ev: null }; // malformed: drop through the bad byte
  const body = String.fromCharCode(...b.slice(2, i));
  const f = String.fromCharCode(fin);

  if (body.startsWith("<")) {
    // SGR mouse: ESC [ < Cb ; Cx ; Cy (M|m)
    const [cb, cx, cy] = body.slice(1).split(";").map(Number);
    if (cb === undefined || cx === undefined || cy === undefined || (f !== "M" && f !== "m")) return { n, ev: null };
    return { n, ev: mouseEvent(cb, cx - 1, cy - 1, f === "m", false) };
  }
  // The answers to KEYS_QUERY: kitty's flags (CSI ? flags u) and DA1 (CSI ? attrs c).
  if (f === "u" && /^\?\d*$/.test(body)) return { n, ev: null, reply: "kitty-flags" };
  if (f === "c" && /^\?[\d;]*$/.test(body)) return { n, ev: null, reply: "device-attributes" };
  if (body.startsWith("?") || body.startsWith(">") || body.startsWith("=")) return { n, ev: null }; // replies we never asked for
  if (body === "" && f === "I") return { n, ev: "FocusGained" };
  if (body === "" && f === "O") return { n, ev: "FocusLost" };
  if (body === "" && f === "Z") return { n, ev: keyEvent("BackTab", SHIFT) };

  // Parameters, with ':' sub-parameters (kitty).
  const params = body.split(";").map((p) => p.split(":").map((x) => (x === "" ? undefined : Number(x))));
  const p0 = params[0]?.[0];
  const modp = params[1]?.[0];
  const kind = KIND[params[1]?.[1] ?? 1] ?? "Press";
  const { mods, state } = decodeMods(modp);

  if (f === "M" && params.length === 3 && body !== "") {
    // rxvt (1015) mouse: ESC [ Cb ; Cx ; Cy M
    return { n, ev: mouseEvent(p0! - 32, params[1]![0]! - 1, params[2]![0]! - 1, false, true) };
  }
  if (f === "~") {
    if (p0 === 200) return { n, ev: PASTE_START };
    if (p0 === 201) return { n, ev: null };
    if (p0 === 27 && params.length >= 3) {
      // xterm modifyOtherKeys: ESC [ 27 ; mod ; code ~
      const m = decodeMods(params[1]?.[0]);
      return { n, ev: codepointKey(params[2]![0]!, m.mods, "Press", m.state) };
    }
    const code = p0 !== undefined ? TILDE[p0] : undefined;
    return { n, ev: code ? keyEvent(code, mods, kind, state) : null };
  }
  if (f === "u") {
    // kitty / CSI-u: ESC [ code[:shifted[:base]] ; mods[:kind] [; text] u
    const cp = p0;
    if (cp === undefined) return { n, ev: null };
    const shifted = params[0]?.[1];
    const useCp = mods & SHIFT && shifted ? shifted : cp;
    return { n, ev: codepointKey(useCp, mods, kind, state) };
  }
  const fk = CSI_FINAL[f];
  if (fk) return { n, ev: keyEvent(fk, mods, kind, state) };
  return { n, ev: null };
}

// Kitty functional-key code points (Private Use Area) and C0 keys.
const KITTY: Record<number, KeyCode> = {
  9: "Tab", 13: "Enter", 27: "Esc", 127: "Backspace", 8: "Backspace",
  57358: "CapsLock", 57359: "ScrollLock", 57360: "NumLock", 57361: "PrintScreen", 57362: "Pause", 57363: "Menu",
  57417: "Left", 57418: "Right", 57419: "Up", 57420: "Down", 57421: "PageUp", 57422: "PageDown",
  57423: "Home", 57424: "End", 57425: "Insert", 57426: "Delete", 57427: "KeypadBegin",
};
const KITTY_KEYPAD_CHARS: Record<number, string> = {
  57409: ".", 57410: "/", 57411: "*", 57412: "-", 57413: "+", 57415: "=", 57416: ",",
};
// Kitty numbers its media keys 57428… and modifier keys 57441… in the order crossterm lists them.

function codepointKey(cp: number, mods: number, kind: KeyKind, state: number): TermEvent | null {
  if (KITTY[cp]) {
    const code = KITTY[cp]!;
    if (code === "Tab" && mods & SHIFT) return keyEvent("BackTab", mods, kind, state);
    return keyEvent(code, mods, kind, state | (cp >= 57417 ? KEYPAD : 0));
  }
  if (cp >= 57399 && cp <= 57408) return keyEvent({ Char: String(cp - 57399) }, mods, kind, state | KEYPAD);
  if (KITTY_KEYPAD_CHARS[cp]) return keyEvent({ Char: KITTY_KEYPAD_CHARS[cp]! }, mods, kind, state | KEYPAD);
  if (cp === 57414) return keyEvent("Enter", mods, kind, state | KEYPAD);
  if (cp >= 57376 && cp <= 57398) return keyEvent({ F: cp - 57376 + 13 }, mods, kind, state);
  if (cp >= 57428 && cp <= 57440) return keyEvent({ Media: MEDIA_KEYS[cp - 57428]! }, mods, kind, state);
  if (cp >= 57441 && cp <= 57454) return keyEvent({ Modifier: MODIFIER_KEYS[cp - 57441]! }, mods, kind, state);
  if (cp < 0x20 || cp > 0x10ffff) return null;
  let ch = String.fromCodePoint(cp);
  if (mods & SHIFT && ch.length === 1 && ch >= "a" && ch <= "z") ch = ch.toUpperCase();
  return charEvent(ch, mods, kind, state);
}

function mouseEvent(cb: number, col: number, row: number, release: boolean, legacy: boolean): TermEvent | null {
  if (Number.isNaN(cb) || Number.isNaN(col) || Number.isNaN(row)) return null;
  let mods = 0;
  if (cb & 4) mods |= SHIFT;
  if (cb & 8) mods |= ALT;
  if (cb & 16) mods |= CONTROL;
  const motion = (cb & 32) !== 0;
  const low = cb & 3;
  let kind: MouseKind;
  if (cb & 64) {
    kind = (["ScrollUp", "ScrollDown", "ScrollLeft", "ScrollRight"] as const)[low]!;
  } else {
    const btn: MouseButton | null = low === 0 ? "Left" : low === 1 ? "Middle" : low === 2 ? "Right" : null;
    if (motion) kind = btn ? { Drag: btn } : "Moved";
    else if (release || (legacy && low === 3)) kind = { Up: btn ?? "Left" };
    else kind = { Down: btn ?? "Left" };
  }
  return { Mouse: { kind, column: Math.max(0, col), row: Math.max(0, row), modifiers: formatMods(mods) } };
}
