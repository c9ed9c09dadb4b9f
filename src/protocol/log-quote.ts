// Values from a client or a file, quoted for a log line or an error message: short, on one line,
// every character a terminal could act on written as a \u escape (safe-text.ts's safeLine).

import { controlChars, safeLine } from "../safe-text";

/** Whether `s` has a control character. */
export function hasControl(s: string): boolean {
  const re = controlChars();
  re.lastIndex = 0;
  return re.test(s);
}

/** A value in JSON form, cut to a short length, control characters escaped. */
export function quote(v: unknown, max = 40): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = Object.prototype.toString.call(v);
  }
  return safeLine(s.length > max ? s.slice(0, max) + "…" : s);
}
