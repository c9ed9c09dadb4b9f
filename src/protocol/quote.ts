// Text from a client or a file, made safe for a log line or an error message: control characters
// (DEL and C1 too, which JSON leaves as they are) written as \u escapes, so what is shown can never
// carry a terminal escape sequence.

import { controlChars } from "../safe-text";

/** Whether `s` has a control character. */
export function hasControl(s: string): boolean {
  const re = controlChars();
  re.lastIndex = 0;
  return re.test(s);
}

/** `s` with every control character escaped. */
export function plain(s: string): string {
  return s.replace(controlChars(), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A value in JSON form, cut to a short length, control characters escaped. */
export function quote(v: unknown, max = 40): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = Object.prototype.toString.call(v);
  }
  return plain(s.length > max ? s.slice(0, max) + "…" : s);
}
