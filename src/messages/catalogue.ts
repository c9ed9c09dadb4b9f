// The self-describing catalogue (`describe`, `ws api describe`, docs/protocol-reference.md), built
// from the registry entries dispatch validates against, so it cannot disagree with the server.
import { MESSAGES } from "./index";
import type { MessageEntry } from "./types";
import { ERROR_CODES, type ErrorCode } from "../protocol/errors";
import { GRANT_MEANING, type Grant } from "../protocol/grants";
import type { Fields } from "../protocol/schema";
import { OPT_IN, PUBLISHED } from "../features/events";
import { LEGACY_REPLY_VERSION, MIN_VERSION, VERSION } from "../protocol/version";

/** Codes any message can get from the envelope, validation and the server's limits. */
export const ENVELOPE_ERRORS: readonly ErrorCode[] = ["invalid_request", "unknown_type", "invalid_params", "version_unsupported", "line_too_long", "busy", "timeout", "internal"];

export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  /** Required only for some values of another field (wait_for's condition): by field, the values. */
  required_when?: Record<string, string[]>;
  default?: unknown;
  accepted?: readonly string[];
  min?: number;
  max?: number;
  shape?: string;
  /** "name": a name, held to the rule in docs/limits.md (no control characters, at most 128 characters). */
  format?: "name";
  description: string;
}

export interface MessageDoc {
  type: string;
  since: number;
  request: boolean;
  /** A message at older versions that is a request from this version on. */
  request_from?: number;
  /** What a connection must hold to send it (docs/security.md "Grants"). */
  grant: Grant;
  /** Below control: "all" must name a pane or workspace of its scope, "any" may name any. */
  scope?: "all" | "any";
  stream: boolean;
  summary: string;
  fields: FieldDoc[];
  reply: { type: string; fields: { name: string; type: string; optional?: true; description: string }[] } | null;
  errors: string[];
  example?: Record<string, unknown>;
}

/** For each field some value of another field requires: that field and those values. */
function requiredWhen(fields: Fields): Map<string, Record<string, string[]>> {
  const out = new Map<string, Record<string, string[]>>();
  for (const [by, spec] of Object.entries(fields))
    for (const [value, needs] of Object.entries(spec.requires ?? {}))
      for (const name of needs) {
        const when = out.get(name) ?? {};
        (when[by] ??= []).push(value);
        out.set(name, when);
      }
  return out;
}

export function describeEntry(e: MessageEntry): MessageDoc {
  const when = requiredWhen(e.fields);
  return {
    type: e.type,
    since: e.since,
    request: e.request,
    ...(e.requestFrom !== undefined ? { request_from: e.requestFrom } : {}),
    grant: e.grant,
    ...(e.scope ? { scope: e.scope } : {}),
    stream: !!e.stream,
    summary: e.summary,
    fields: Object.entries(e.fields).map(([name, f]) => ({
      name,
      type: f.type,
      required: !!f.required,
      ...(when.has(name) ? { required_when: when.get(name) } : {}),
      ...(f.default !== undefined ? { default: f.default } : {}),
      ...(f.accepted ? { accepted: f.accepted } : {}),
      ...(f.min !== undefined ? { min: f.min } : {}),
      ...(f.max !== undefined ? { max: f.max } : {}),
      ...(f.shape ? { shape: f.shape } : {}),
      ...(f.name ? { format: "name" as const } : {}),
      description: f.description,
    })),
    reply: e.request || e.requestFrom !== undefined
      ? { type: e.reply ?? "ok", fields: Object.entries(e.replyFields ?? {}).map(([name, r]) => ({ name, type: r.type, ...(r.optional ? { optional: true } : {}), description: r.description })) }
      : null,
    errors: [...new Set([...(e.errors ?? [])])],
    ...(e.example ? { example: e.example } : {}),
  };
}

export function catalogue() {
  return {
    protocol: { version: VERSION, min_version: MIN_VERSION, legacy_reply_version: LEGACY_REPLY_VERSION },
    envelope: [
      { name: "v", type: "integer", required: true, description: `The protocol version the line is sent at, ${MIN_VERSION} to ${VERSION}. Send each message at the version that introduced it, or at ${VERSION} for the structured envelope` },
      { name: "type", type: "string", required: true, description: "The message type" },
      { name: "id", type: "integer|string", required: false, description: "v6 only: echoed on the reply, so a client can match replies to requests" },
    ],
    grants: Object.entries(GRANT_MEANING).map(([grant, description]) => ({ grant, description })),
    errors: Object.entries(ERROR_CODES).map(([code, description]) => ({ code, description })),
    envelope_errors: ENVELOPE_ERRORS,
    events: PUBLISHED.map((e) => ({
      type: e.type,
      opt_in: OPT_IN.includes(e.type),
      description: e.description,
      fields: Object.entries(e.fields).map(([name, f]) => ({ name, type: f.type, ...(f.optional ? { optional: true } : {}), description: f.description })),
    })),
    messages: MESSAGES.map(describeEntry),
  };
}
