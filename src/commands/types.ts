// The shape of one protocol message's registry entry (DESIGN.md "The registry"). Validation,
// dispatch, the CLI and the docs all read these entries. Only type imports of server code here,
// so the CLI can load the registry without loading the server.
import type { Fields } from "../protocol/schema";
import type { Session } from "../model/session";
import type { Services } from "../server/services";

export type Reply =
  | { type: "ok" }
  | { type: "pane"; pane: number }
  | { type: "error"; message: string }
  | { type: string; [field: string]: unknown };

/** What a handler can reach: the model and the server's own controls. */
export interface HandlerContext {
  session: Session;
  /** Quit the server (after the reply is written). `keep` saves the session first. */
  shutdown(keep: boolean): void;
  /** The control service, and what features provide (agents, persistence, …), typed by name. */
  services: Services;
  /** The connection the message came on, for messages that take it over (attach, subscribe). */
  connection?: unknown;
  /** The protocol version the line was sent at. */
  version?: number;
  /** Aborted when the connection closes: long waits stop and release what they hold. */
  signal?: AbortSignal;
  /** Run once the reply has been written (a stream starts after its acknowledgement). */
  afterReply?: (fn: () => void) => void;
}

/** One field of a reply, for the catalogue: its type and meaning. */
export interface ReplyField {
  type: string;
  description: string;
}

export interface MessageEntry<P = any> {
  type: string;
  /** The protocol version that introduced it: clients send it at this version. */
  since: number;
  /** Requests get a JSON reply; other messages get a plain `ok` and are acted on afterwards. */
  request: boolean;
  summary: string;
  fields: Fields;
  /** The reply's `type` for a request that succeeds. */
  reply?: string;
  /** Example line, as the spec gives it. */
  example?: Record<string, unknown>;
  /** The reply's fields (besides `v`, `id`, `type`), for the catalogue and docs. */
  replyFields?: Record<string, ReplyField>;
  /** Error codes the handler itself can answer (the envelope's own codes apply to every message). */
  errors?: string[];
  /** Requests that may rightly take longer than the 10 s answer deadline (waits, streams). */
  longRunning?: boolean;
  /** After its reply the connection carries a stream of lines, not more replies. */
  stream?: boolean;
  /** Requests return their reply; messages return nothing. Throw WsError to refuse. */
  handle(params: P, ctx: HandlerContext): Reply | void | Promise<Reply | void>;
}

export function defineMessage<P = any>(e: MessageEntry<P>): MessageEntry<P> {
  return e;
}

export const ok = (): Reply => ({ type: "ok" });

/** Codes a request that starts panes can answer; each leaves the model as it was. */
export const PANE_START_ERRORS = ["program_not_found", "cwd_not_found", "spawn_failed", "limit_exceeded"];
