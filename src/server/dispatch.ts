// Control flow for one line: envelope → registry lookup → field validation → handler → reply in
// the style the line's version gets. Lines at v1–v5 are answered exactly as before v6 (JSON at
// "v":5 for requests, plain `ok` / `error: …` otherwise, unknown fields ignored); v6 lines get JSON
// at "v":6 with their `id` echoed, structured errors (`code`, `hint`) and strict fields.
import { REGISTRY } from "../messages";
import type { HandlerContext, MessageEntry, Reply } from "../messages/types";
import { ENVELOPE_FIELDS, jsonReply, parseEnvelope, plainError, plainOk, replyVersion, structuredError, type Id } from "../protocol/envelope";
import { WsError, closest, type ErrorHint } from "../protocol/errors";
import { validateFields } from "../protocol/schema";
import { STRUCTURED_VERSION } from "../protocol/version";
import { envInt } from "../model/limits";
import { log } from "../log";

/** A request not answered within this gets the spec's timeout reply (WS_REQUEST_TIMEOUT_MS: tests). */
export const REQUEST_TIMEOUT_MS = envInt("WS_REQUEST_TIMEOUT_MS", 10_000);
/** After its deadline a handler has this long to finish or undo its change (its signal says when). */
export const ABORT_GRACE_MS = 2000;

export interface Dispatched {
  /** The reply line to write. */
  reply: string;
  /** Work to do once the reply is written (non-requests act after their `ok`). */
  after?: () => void | Promise<void>;
  entry?: MessageEntry;
  /** The line's version, when its envelope was readable. */
  v?: number;
}

/** Per-connection memory of the last readable line's style, for errors of lines that aren't. */
export interface LineStyle {
  structured: boolean;
}

export interface DispatchOptions {
  style?: LineStyle;
  /** Refuse the message with this error without running it (e.g. `busy`), or ask per message
   * (its grant: server/trust.ts), once its fields are valid. */
  refuse?: WsError | ((entry: MessageEntry, params: Record<string, unknown>) => WsError | undefined | Promise<WsError | undefined>);
}

function asWsError(e: unknown): WsError {
  if (e instanceof WsError) return e;
  log.error("handler failed:", e);
  return new WsError(`internal error: ${(e as Error)?.message ?? String(e)}`, "internal");
}

/** For "not found" codes: the fields that most likely hold the name that was not found. */
const LIKELY_FIELDS: Record<string, string[]> = {
  workspace_not_found: ["workspace", "name"],
  tab_not_found: ["tab"],
  pane_not_found: ["pane", "with"],
};

/** A structured error's hint, with the field and the closest match filled in where the handler left them out. */
function enrichHint(e: WsError, entry: MessageEntry, params: Record<string, unknown>): ErrorHint | undefined {
  const hint: ErrorHint = { ...e.hint };
  if (hint.available) {
    const available = hint.available.filter((a): a is string | number => typeof a === "string" || typeof a === "number");
    const missing = (n: string) => params[n] !== undefined && !available.some((a) => a === params[n]);
    // The field whose value was not found: the likely ones for the code first, then the rest.
    const order = [...(LIKELY_FIELDS[e.code] ?? []), ...(hint.param ? [hint.param] : []), ...Object.keys(params)];
    const field = order.find((n) => Object.hasOwn(entry.fields, n) && missing(n));
    if (field) {
      hint.param = field;
      const sent = params[field];
      if (hint.did_you_mean === undefined && typeof sent === "string") {
        const near = closest(sent, available);
        if (near !== undefined && String(near) !== sent) hint.did_you_mean = near;
      }
    }
  }
  return Object.keys(hint).length ? hint : undefined;
}

export async function dispatchLine(line: string, ctx: HandlerContext, o: DispatchOptions = {}): Promise<Dispatched> {
  const env = parseEnvelope(line);
  if ("error" in env) {
    // Version errors keep the spec's plain form; other unreadable lines are answered in the style
    // of the line (when its `v` could be read) or of the connection's last readable line.
    const structured = env.code !== "version_unsupported" && (env.v !== undefined ? env.v >= STRUCTURED_VERSION : !!o.style?.structured);
    if (!structured) return { reply: plainError(env.error) };
    return { reply: structuredError("invalid_request", env.error, { command: "ws api describe" }, env.id), v: env.v };
  }
  const { v, id } = env;
  const structured = v >= STRUCTURED_VERSION;
  if (o.style) o.style.structured = structured;
  const entry = REGISTRY.get(env.type);
  if (!entry) {
    if (!structured) return { reply: plainError(`invalid message: unknown type "${env.type}"`), v };
    const near = closest(env.type, [...REGISTRY.keys()]);
    const hint: ErrorHint = { param: "type", ...(near !== undefined ? { did_you_mean: near } : {}), command: "ws api describe" };
    return { reply: structuredError("unknown_type", `unknown type "${env.type}"`, hint, id), v };
  }
  if (entry.since >= STRUCTURED_VERSION && entry.since > v) {
    // Messages added in v6 never existed at the version the line was sent at (older ones stay as
    // lenient as they always were: a v1 `dashboard` is still answered).
    const message = `${entry.type} needs protocol version ${entry.since} (sent at "v":${v})`;
    if (!structured) return { reply: plainError(`invalid message: ${message}`), entry, v };
  }
  const checked = validateFields(entry.fields, env.msg, { strict: structured, envelope: ENVELOPE_FIELDS, version: v });
  if ("error" in checked) {
    if (!structured) return { reply: plainError(`invalid message: ${checked.error}`), entry, v };
    const p = checked.problem;
    const hint: ErrorHint = { param: p.param };
    if (p.accepted) hint.accepted = [...p.accepted];
    if (p.sent !== undefined && p.accepted) {
      const near = closest(p.sent, p.accepted.map(String));
      if (near !== undefined) hint.did_you_mean = near;
    }
    hint.command = `ws api describe ${entry.type}`;
    return { reply: structuredError("invalid_params", checked.error, hint, id), entry, v };
  }
  const params = checked.params;
  const isRequest = entry.request || (entry.requestFrom !== undefined && v >= entry.requestFrom);
  const fail = (e: WsError): string =>
    structured ? structuredError(e.code, e.message, enrichHint(e, entry, params), id) : isRequest ? jsonReply({ type: "error", message: e.message }) : plainError(e.message);
  const refusal = typeof o.refuse === "function" ? await o.refuse(entry, params) : o.refuse;
  if (refusal) return { reply: fail(refusal), entry, v };

  if (!isRequest) {
    return {
      reply: structured ? jsonReply({ type: "ok" }, replyVersion(v), id) : plainOk,
      entry,
      v,
      after: async () => {
        try {
          await entry.handle(params, { ...ctx, version: v });
        } catch (e) {
          log.error(`${entry.type} failed: ${asWsError(e).message}`);
        }
      },
    };
  }
  // The deadline is also the handler's signal: a handler that changes the model finishes before it
  // replies or, told at the deadline, undoes what it did, so a client that retries after `timeout`
  // never gets the change twice.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const TIMED_OUT = Symbol("timeout");
  const deadline = new AbortController();
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    if (entry.longRunning) return;
    timer = setTimeout(() => {
      deadline.abort(new WsError(`ws didn't answer in time (${REQUEST_TIMEOUT_MS} ms); nothing was done, retry`, "timeout"));
      resolve(TIMED_OUT);
    }, REQUEST_TIMEOUT_MS);
  });
  const signal = entry.longRunning ? ctx.signal : ctx.signal ? AbortSignal.any([ctx.signal, deadline.signal]) : deadline.signal;
  try {
    const answer: Promise<Reply | WsError> = Promise.resolve()
      .then(() => entry.handle(params, { ...ctx, version: v, ...(signal ? { signal } : {}) }))
      .then((r) => r ?? { type: "ok" }, asWsError);
    let reply = await Promise.race([answer, timeout]);
    if (reply === TIMED_OUT) {
      // Told to stop: what it answers now is the truth (its reply if it finished, its undo's
      // `timeout` if not); one still busy after the grace is answered `timeout` as before.
      reply = await Promise.race([answer, Bun.sleep(ABORT_GRACE_MS).then((): typeof TIMED_OUT => TIMED_OUT)]);
      if (reply === TIMED_OUT) return { reply: fail(new WsError("ws didn't answer in time; the request may still finish", "timeout")), entry, v };
    }
    if (reply instanceof WsError) return { reply: fail(reply), entry, v };
    return { reply: jsonReply(reply as { type: string }, replyVersion(v), id), entry, v };
  } finally {
    clearTimeout(timer);
  }
}

export type { Id };
