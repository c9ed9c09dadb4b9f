// Text that others wrote (workspace and tab names, titles a pane's program set, commands, cwd,
// agent messages, a server's error messages) printed by the CLI to a terminal. Raw, a control
// character lets it run escape sequences (OSC 52 writes the clipboard, DCS queries answer into the
// input, CSI moves the cursor over earlier output) and a bidi control reorders what is shown. The
// attach screen drops such characters (it draws only printable cells); the CLI shows them
// visibly, as `cat -v` does, so nothing is hidden either. docs/security.md "Terminal-safe output".
// Log lines and error messages that quote such values use the same escapes (safeLine, logValue).

/**
 * The named character classes, each written once (as the inside of a regex class), from which
 * every set below and elsewhere (controlChars, unsafeChars, names, notifications, prompts) is built.
 */
export const CHARS = {
  /** C0 controls: ESC, BEL, CR, tab, newline, … */
  c0: "\\x00-\\x1f",
  /** C0 controls other than tab and newline. */
  c0ButTabNewline: "\\x00-\\x08\\x0b-\\x1f",
  del: "\\x7f",
  /** C1 controls U+0080–U+009F: CSI, OSC, DCS, ST in 8-bit form. */
  c1: "\\x80-\\x9f",
  /** Bidi embeddings and overrides U+202A–U+202E. */
  bidiEmbeddings: "\\u202a-\\u202e",
  /** Bidi isolates U+2066–U+2069. */
  bidiIsolates: "\\u2066-\\u2069",
  /** Bidi marks: U+061C, U+200E, U+200F. */
  bidiMarks: "\\u061c\\u200e\\u200f",
  /** Invisible characters that only hide text: zero-width space, word joiner and the invisible
   * operators, the byte-order mark (not the joiners: emoji and scripts need those). */
  invisible: "\\u200b\\u2060-\\u2064\\ufeff",
  /** Zero-width space, non-joiner, joiner U+200B–U+200D. */
  zeroWidth: "\\u200b-\\u200d",
  /** The line and paragraph separators U+2028, U+2029. */
  lineSeparators: "\\u2028\\u2029",
} as const;

const built = new Map<string, RegExp>();

/**
 * A regex matching any character of the named classes. Built on first use and then shared: a CLI
 * call that never needs one never pays the ~0.3 ms building a RegExp costs. With the g flag, use
 * it with replace (or reset lastIndex before test/exec).
 */
export function charClass(names: (keyof typeof CHARS)[], flags = ""): RegExp {
  const key = `${names.join(" ")}/${flags}`;
  let re = built.get(key);
  if (!re) built.set(key, (re = new RegExp(`[${names.map((n) => CHARS[n]).join("")}]`, flags)));
  return re;
}

/** C0 controls, DEL and the C1 controls: what must never reach a terminal from others' text. */
export const controlChars = () => charClass(["c0", "del", "c1"], "g");

/**
 * The characters a terminal must not get raw: C0 controls other than tab and newline, DEL, C1,
 * the bidi embeddings, overrides, isolates and marks, and the line and paragraph separators.
 */
export const unsafeChars = () => charClass(["c0ButTabNewline", "del", "c1", "bidiMarks", "lineSeparators", "bidiEmbeddings", "bidiIsolates"], "g");

/** A C0 control or DEL in caret notation (ESC → ^[, BEL → ^G, DEL → ^?); anything else as <U+XXXX>. */
function visible(c: string): string {
  const n = c.charCodeAt(0);
  if (n < 0x20) return `^${String.fromCharCode(n + 0x40)}`;
  if (n === 0x7f) return "^?";
  return `<U+${n.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** SGR (colour and attribute) sequences: the only escapes `ws pane read --styled` passes on. */
const SGR = /\x1b\[[0-9;:]*m/g;

/**
 * Whether `s` holds a character of unsafeChars(): the same class as a loop, because nearly all text
 * has none, and a CLI call then never pays the ~0.4 ms a first regex replace costs to compile.
 * (test/safe-text.test.ts holds the two to the same class over every UTF-16 code unit.)
 */
export function hasUnsafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) {
      if (c !== 0x09 && c !== 0x0a) return true;
    } else if (c >= 0x7f) {
      if (c <= 0x9f || c === 0x61c || c === 0x200e || c === 0x200f || c === 0x2028 || c === 0x2029) return true;
      if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
    }
  }
  return false;
}

/** `s` with every unsafe character shown visibly; with `keepSgr`, SGR sequences pass unchanged. */
export function safeText(s: string, opts: { keepSgr?: boolean } = {}): string {
  if (!hasUnsafe(s)) return s;
  if (!opts.keepSgr) return s.replace(unsafeChars(), visible);
  let out = "";
  let from = 0;
  for (const m of s.matchAll(SGR)) {
    out += s.slice(from, m.index).replace(unsafeChars(), visible) + m[0];
    from = m.index + m[0].length;
  }
  return out + s.slice(from).replace(unsafeChars(), visible);
}

/**
 * JSON text made safe for a terminal without changing what it means: every unsafe character
 * becomes a \uXXXX escape (JSON.stringify leaves DEL, C1 and bidi controls raw). Inside a JSON
 * string that decodes to the exact original; `--json` output stays exact.
 */
export function safeJson(text: string): string {
  if (!hasUnsafe(text)) return text;
  return text.replace(unsafeChars(), uEscape);
}

/** safeJson's escapes, on one line: tab and newline are escaped too (a log line, an error message
 * quoting what a client or a file held). */
export function safeLine(text: string): string {
  return safeJson(text).replace(/[\t\n]/g, uEscape);
}

/** A character as a \uXXXX escape: JSON reads it back as that character. */
const uEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Whether `s` has a control character (C0, DEL or C1). */
export function hasControl(s: string): boolean {
  const re = controlChars();
  re.lastIndex = 0;
  return re.test(s);
}

/** A value from a client or a file as a log line or an error message shows it: its JSON form, cut
 * to `max` characters, on one line with every character a terminal could act on escaped. */
export function logValue(v: unknown, max = 40): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = Object.prototype.toString.call(v);
  }
  return safeLine(s.length > max ? s.slice(0, max) + "…" : s);
}
