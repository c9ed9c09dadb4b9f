// The JSON-lines envelope: `v`, `type` and (v6) `id` on every line, the accepted version range, and
// the reply styles: plain `ok` / `error: …` lines and JSON replies at "v":5 for lines sent at v1–v5
// (unchanged since v5), JSON replies at "v":6 with `id` echoed and structured errors for v6 lines.
import type { ErrorHint } from "./errors";
import { LEGACY_REPLY_VERSION, MIN_VERSION, STRUCTURED_VERSION, VERSION } from "./version";

export type Id = number | string;

export interface Envelope {
  v: number;
  type: string;
  /** v6: echoed on the reply. */
  id?: Id;
  msg: Record<string, unknown>;
}

export interface EnvelopeError {
  error: string;
  code: "invalid_request" | "version_unsupported";
  /** The line's `v`, when it had a usable one. */
  v?: number;
  id?: Id;
}

/** The fields of the envelope itself, never a message's own. */
export const ENVELOPE_FIELDS = ["v", "type", "id"] as const;

/** Parse one line. Errors are the text after `error: `. */
export function parseEnvelope(line: string): Envelope | EnvelopeError {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    return { error: `invalid message: ${(e as Error).message}`, code: "invalid_request" };
  }
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return { error: "invalid message: expected a JSON object", code: "invalid_request" };
  const o = msg as Record<string, unknown>;
  if (o.v === undefined) return { error: "invalid message: missing field `v`", code: "invalid_request" };
  if (!Number.isSafeInteger(o.v)) return { error: "invalid message: `v` must be an integer", code: "invalid_request" };
  const v = o.v as number;
  if (v < MIN_VERSION || v > VERSION) return { error: versionError(v), code: "version_unsupported" };
  let id: Id | undefined;
  if (v >= STRUCTURED_VERSION && o.id !== undefined) {
    if (!((typeof o.id === "number" && Number.isFinite(o.id)) || typeof o.id === "string"))
      return { error: "invalid message: `id` must be a number or a string", code: "invalid_request", v };
    id = o.id;
  }
  if (o.type === undefined) return { error: "invalid message: missing field `type`", code: "invalid_request", v, id };
  if (typeof o.type !== "string") return { error: "invalid message: `type` must be a string", code: "invalid_request", v, id };
  return { v, type: o.type, id, msg: o };
}

export function versionError(v: number): string {
  return `protocol version ${v} not supported (this ws speaks ${MIN_VERSION}..=${VERSION})`;
}

/** The version a reply to a line sent at `v` is sent at. */
export function replyVersion(v: number): number {
  return v >= STRUCTURED_VERSION ? VERSION : LEGACY_REPLY_VERSION;
}

/** A JSON reply line: the envelope first (`v`, then `id` when given), then the reply's own fields. */
export function jsonReply(reply: { type: string; [k: string]: unknown }, v: number = LEGACY_REPLY_VERSION, id?: Id): string {
  const { type, ...rest } = reply;
  return JSON.stringify(id === undefined ? { v, type, ...rest } : { v, id, type, ...rest }) + "\n";
}

/** A v6 error reply line. */
export function structuredError(code: string, message: string, hint?: ErrorHint, id?: Id): string {
  const body: Record<string, unknown> = { type: "error", code, message };
  if (hint && Object.keys(hint).length) body.hint = hint;
  return jsonReply(body as { type: string }, VERSION, id);
}

export const plainOk = "ok\n";
export const plainError = (reason: string) => `error: ${reason.replace(/\n/g, " ")}\n`;

/** The code a plain `error: …` line stands for (servers answer these before they know a version). */
export function plainErrorCode(message: string): string {
  if (/^protocol version -?\d+ not supported/.test(message)) return "version_unsupported";
  if (/^line too long/.test(message)) return "line_too_long";
  if (/^too many connections/.test(message)) return "too_many_connections";
  if (/^busy/.test(message)) return "busy";
  if (/^invalid message: unknown type/.test(message)) return "unknown_type";
  if (/^invalid message: (missing field `(?!v`|type`)|invalid (type|value)|unknown field)/.test(message)) return "invalid_params";
  if (/needs protocol version/.test(message)) return "version_unsupported";
  return "invalid_request";
}

/** Read a reply line in either style (spec: "Older servers"). Plain errors get their `code`. */
export function parseReply(line: string): { type: string; [k: string]: unknown } {
  // Slices, not a regex replace: every CLI call parses one reply, and a first replace costs ~0.4 ms.
  const l = !line.endsWith("\n") ? line : line.slice(0, line.endsWith("\r\n") ? -2 : -1);
  if (l === "ok") return { type: "ok" };
  if (l.startsWith("error:")) {
    const message = l.startsWith("error: ") ? l.slice(7) : l.slice(6).trim();
    return { type: "error", message, code: plainErrorCode(message), plain: true };
  }
  try {
    const o = JSON.parse(l);
    if (o && typeof o === "object" && typeof o.type === "string") return o;
  } catch {}
  return { type: "error", message: `unreadable reply: ${l.slice(0, 200)}` };
}
