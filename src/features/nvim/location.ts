// `path[:line[:col]]`, as ws open and the open message take it. Pure: the CLI parses it too, to
// make a relative path absolute before sending.

export interface Location {
  path: string;
  line?: number;
  col?: number;
}

export function parseLocation(text: string): Location {
  const m = /^(.+?)(?::(\d+)(?::(\d+))?)?$/s.exec(text);
  if (!m) return { path: text };
  const num = (s: string | undefined) => (s !== undefined ? Number(s) : undefined);
  return { path: m[1]!, ...(m[2] !== undefined ? { line: num(m[2]) } : {}), ...(m[3] !== undefined ? { col: num(m[3]) } : {}) };
}

export function formatLocation(l: Location): string {
  return l.path + (l.line !== undefined ? `:${l.line}${l.col !== undefined ? `:${l.col}` : ""}` : "");
}
