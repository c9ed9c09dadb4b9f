// The JSON-lines envelope: `v` and `type` on every line, the accepted version range, and the two
// reply styles (plain `ok` / `error: …` lines, and JSON replies at the server's version).
import { MIN_VERSION, VERSION } from "./version";

export interface Envelope {
  v: number;
  type: string;
  msg: Record<string, unknown>;
}

/** Parse one line. Errors are the text after `error: `. */
export function parseEnvelope(line: string): Envelope | { error: string } {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    return { error: `invalid message: ${(e as Error).message}` };
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return { error: "invalid message: expected a JSON object" };
  const o = msg as Record<string, unknown>;
  if (o.v === undefined) return { error: "invalid message: missing field `v`" };
  if (!Number.isSafeInteger(o.v)) return { error: "invalid message: `v` must be an integer" };
  const v = o.v as number;
  if (v < MIN_VERSION || v > VERSION) return { error: versionError(v) };
  if (o.type === undefined) return { error: "invalid message: missing field `type`" };
  if (typeof o.type !== "string") return { error: "invalid message: `type` must be a string" };
  return { v, type: o.type, msg: o };
}

export function versionError(v: number): string {
  return `protocol version ${v} not supported (this ws speaks ${MIN_VERSION}..=${VERSION})`;
}

/** A JSON reply line: the envelope first, then the reply's own fields. */
export function jsonReply(reply: { type: string; [k: string]: unknown }, v = VERSION): string {
  const { type, ...rest } = reply;
  return JSON.stringify({ v, type, ...rest }) + "\n";
}

export const plainOk = "ok\n";
export const plainError = (reason: string) => `error: ${reason.replace(/\n/g, " ")}\n`;

/** Read a reply line in either style (spec: "Older servers"). */
export function parseReply(line: string): { type: string; [k: string]: unknown } {
  const l = line.replace(/\r?\n$/, "");
  if (l === "ok") return { type: "ok" };
  if (l.startsWith("error: ")) return { type: "error", message: l.slice(7), plain: true };
  if (l.startsWith("error:")) return { type: "error", message: l.slice(6).trim(), plain: true };
  try {
    const o = JSON.parse(l);
    if (o && typeof o === "object" && typeof o.type === "string") return o;
  } catch {}
  return { type: "error", message: `unreadable reply: ${l.slice(0, 200)}` };
}
