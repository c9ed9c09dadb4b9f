// A value from a client or a file, quoted for a log line or an error message: JSON form (control
// characters escaped, DEL and C1 too, which JSON leaves as they are), cut to a short length, so
// what is shown can never carry a terminal escape sequence.
export function quote(v: unknown, max = 40): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = Object.prototype.toString.call(v);
  }
  if (s.length > max) s = s.slice(0, max) + "…";
  return s.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
