// The shape of one protocol message's registry entry (docs/architecture.md "The registry"). Validation,
// dispatch, the CLI and the docs all read these entries. Only type imports of server code here,
// so the CLI can load the registry without loading the server.
import { optionalFields, shapeTyped, type Fields, type Shape, type ShapeField, type ShapeFields, type Static } from "../protocol/schema";
import type { ErrorCode } from "../protocol/errors";
import type { RunName, ViewName } from "./cli-names";
import type { Session } from "../model/session";
import type { Services } from "../features/services";
import type { Grant } from "../protocol/grants";
import type { Connection } from "../protocol/connection";

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
  connection?: Connection;
  /** The protocol version the line was sent at. */
  version?: number;
  /** Aborted when the connection closes (long waits stop and release what they hold) or, for a
   * request with the 10 s deadline, at the deadline: a handler that changes the model stops and
   * undoes what it did (its reason is the `timeout` WsError), or finishes before it replies. */
  signal?: AbortSignal;
  /** Run once the reply has been written (a stream starts after its acknowledgement). */
  afterReply?: (fn: () => void) => void;
  /** The pane the line came from, on a pane socket: the caller is that pane (undefined: the main socket). */
  callerPane?: number;
}

/** One field of a reply: its type and meaning (protocol/schema.ts's ShapeField). */
export type ReplyField = ShapeField;
export type ReplyFields = ShapeFields;
/** A reply field whose value has a TypeScript type its catalogue `type` can't say. */
export const replyTyped = shapeTyped;
export { optionalFields };

/** A reply as its entry declares it: `type` its `reply`, each of `replyFields` typed. An entry
 * typed only as MessageEntry (the registry's list) replies with any fields. */
export type ReplyOf<R extends string, RF> = string extends keyof RF
  ? Reply
  : Shape<RF, { type: R }>;

/** The reply an entry's handler answers with (what `s.v6()` and the CLI's views read). */
export type EntryReply<E> = E extends MessageEntry<Fields, infer R, infer RF> ? ReplyOf<R, RF> : never;

/** Fields a returned reply has that its entry doesn't declare (a union's `?: undefined` fillers aside). */
type Undeclared<M, O> = Exclude<{ [K in keyof M]-?: [M[K]] extends [undefined] ? never : K }[keyof M], keyof O>;

/** Why a handler's reply disagrees with its entry's `replyFields` (never: it agrees). */
type ReplyProblem<M, O> = M extends void
  ? never
  : M extends O
    ? [Undeclared<M, O>] extends [never]
      ? never
      : `the reply has a field its replyFields do not declare: ${Undeclared<M, O> & string}`
    : "the reply lacks a field its replyFields declare, or one has the wrong type";

type HandlerProblem<H, O> = H extends (...a: never[]) => infer T ? ReplyProblem<Awaited<T>, O> : never;

/** Adds an impossible `replyProblem` property where the handler's reply and replyFields disagree,
 * so tsc names the field at the entry. */
type ReplyCheck<H, O> = [HandlerProblem<H, O>] extends [never] ? unknown : { replyProblem: HandlerProblem<H, O> };

/** A handler's parameters: inferred from the entry's fields (any for an entry of unknown fields). */
// biome-ignore lint/suspicious/noExplicitAny: an entry typed only as MessageEntry<Fields> (the registry's list) takes any fields
export type Params<F extends Fields> = string extends keyof F ? any : Static<F>;

export interface MessageEntry<F extends Fields = Fields, R extends string = string, RF extends ReplyFields = ReplyFields> {
  type: string;
  /** The protocol version that introduced it: clients send it at this version. */
  since: number;
  /** What a connection must hold to send it (docs/security.md "Grants"): a level (report < self <
   * workspace < control), or "person" for the person's verbs, which no pane's socket ever carries. */
  grant: Grant;
  /** Below control, which panes and workspaces it may name: by default those in the caller's scope,
   * and a message that names none acts on the focused pane, which must be too; "all": naming none
   * means every pane, so it must name some; "any": it only lists, and may name any. */
  scope?: "all" | "any";
  /** Requests get a JSON reply; other messages get a plain `ok` and are acted on afterwards. */
  request: boolean;
  /** A message (not a request) at v1–v5 that is a request from this version on: a line sent at it
   * waits for the handler and gets its reply or error (new_workstream at v6). */
  requestFrom?: number;
  summary: string;
  fields: F;
  /** The reply's `type` for a request that succeeds. */
  reply?: R;
  /** Example line, as the spec gives it. */
  example?: Record<string, unknown>;
  /** The reply's fields (besides `v`, `id`, `type`): the catalogue and docs list them, and the
   * handler's reply type is inferred from them. */
  replyFields?: RF;
  /** Error codes the handler itself can answer (the envelope's own codes apply to every message). */
  errors?: readonly ErrorCode[];
  /** Requests that may rightly take longer than the 10 s answer deadline (waits, streams). */
  longRunning?: boolean;
  /** After its reply the connection carries a stream of lines, not more replies. */
  stream?: boolean;
  /** How the CLI offers it (a message without one is reached only by `ws call`). */
  cli?: MessageCli | MessageCli[];
  /** Requests return their reply; messages return nothing. Throw WsError to refuse. */
  handle(params: Params<F>, ctx: HandlerContext): NoInfer<ReplyOf<R, RF>> | void | Promise<NoInfer<ReplyOf<R, RF>> | void>;
}

/**
 * A message as a CLI command, as a tmux cmd_entry carries its getopt template. src/cli-table/table.ts
 * turns it, with the fields' types and descriptions, into the command table baked into the CLI at
 * build time. Fields not positional, rest or fixed are flags `--field-name`.
 */
export interface MessageCli {
  /** The command words, e.g. "pane send". */
  path: string;
  /** One line for help (default: the summary's first sentence). */
  summary?: string;
  /** Fields given as positional arguments, in order; "name?" may be left out; a last string[]
   * "name..." takes every remaining word, one element each. */
  args?: string[];
  /** The string[] field that takes the words after `--`. */
  rest?: string;
  /** The CLI's own defaults: "$WS_PANE_ID" (the pane it runs in), "$PWD" (the caller's directory) or a value. */
  defaults?: Record<string, unknown>;
  /** Fields the command sets itself (e.g. wait's condition); not offered. */
  fixed?: Record<string, unknown>;
  /** The fields offered as flags (default: every field not positional, rest or fixed). */
  flags?: string[];
  /** string[] flags given once per value and gathered in order (`--choice yes --choice no`), a
   * comma being part of the value; other string[] flags split one value at commas. */
  repeat?: string[];
  /** One-letter spellings of flags, by letter: `{ m: "message" }` makes `-m MSG` mean `--message MSG`. */
  short?: Record<string, string>;
  /** Flags that also take a percentage: `--size 40%` sets the named field (percent) instead. */
  percent?: Record<string, string>;
  /** Flags that set a field to a constant, e.g. `below: { field: "right", value: false }`. */
  switches?: Record<string, { field: string; value: unknown; description: string }>;
  /** The command line must give at least one of these fields (else a usage error): `ws pane send
   * PANE` with neither text nor --enter would do nothing. */
  oneOf?: string[];
  /** How to print the reply for people (a name in src/cli/views.ts); default: nothing. */
  view?: ViewName;
  /** A handler in src/cli/handlers.ts for a command that does more than send and print. */
  run?: RunName;
  /** What the CLI's exit status says (docs/cli.md, Exit statuses): exit_code: the reply's
   * `exit_code` (a program's status; `--status-ok` makes it 0); found: 1 when `matches` is empty,
   * as grep. Default: 0 on success. */
  status?: ExitStatusRule;
}

export type ExitStatusRule = "exit_code" | "found" | "warnings";

/** A registry entry; its handler's parameter type is inferred from `fields`, and its reply must be
 * what `reply` and `replyFields` declare: no field more, none missing (tsc says which). */
// biome-ignore lint/complexity/noBannedTypes: no replyFields: the reply is its `type` alone.
export function defineMessage<const F extends Fields, const R extends string = "ok", const RF extends ReplyFields = {}, H extends MessageEntry<F, R, RF>["handle"] = MessageEntry<F, R, RF>["handle"]>(
  e: MessageEntry<F, R, RF> & { handle: H } & ReplyCheck<H, ReplyOf<R, RF>>,
): MessageEntry<F, R, RF> {
  return e;
}

export const ok = (): { type: "ok" } => ({ type: "ok" });

/** Codes a request that starts panes can answer; each leaves the model as it was. */
export const PANE_START_ERRORS: readonly ErrorCode[] = ["program_not_found", "cwd_not_found", "spawn_failed", "limit_exceeded", "box_unavailable", "box_refused"];
