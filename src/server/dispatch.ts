// Control flow for one line: envelope → registry lookup → field validation → handler → reply in
// the style the spec gives that message.
import { REGISTRY } from "../commands";
import type { HandlerContext, MessageEntry, Reply } from "../commands/types";
import { jsonReply, parseEnvelope, plainError, plainOk } from "../protocol/envelope";
import { WsError } from "../protocol/errors";
import { validateFields } from "../protocol/schema";

/** A request not answered within this gets the spec's timeout reply. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface Dispatched {
  /** The reply line to write. */
  reply: string;
  /** Work to do once the reply is written (non-requests act after their `ok`). */
  after?: () => void | Promise<void>;
  entry?: MessageEntry;
}

function errorText(e: unknown): string {
  if (e instanceof WsError) return e.message;
  console.error("handler failed:", e);
  return `internal error: ${(e as Error)?.message ?? String(e)}`;
}

export async function dispatchLine(line: string, ctx: HandlerContext): Promise<Dispatched> {
  const env = parseEnvelope(line);
  if ("error" in env) return { reply: plainError(env.error) };
  const entry = REGISTRY.get(env.type);
  if (!entry) return { reply: plainError(`invalid message: unknown type "${env.type}"`) };
  const checked = validateFields(entry.fields, env.msg);
  if ("error" in checked) return { reply: plainError(`invalid message: ${checked.error}`), entry };
  if (!entry.request) {
    return {
      reply: plainOk,
      entry,
      after: async () => {
        try {
          await entry.handle(checked.params, ctx);
        } catch (e) {
          console.error(`${entry.type} failed: ${errorText(e)}`);
        }
      },
    };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Reply>((resolve) => {
    timer = setTimeout(() => resolve({ type: "error", message: "ws didn't answer in time" }), REQUEST_TIMEOUT_MS);
  });
  try {
    const answer = Promise.resolve()
      .then(() => entry.handle(checked.params, ctx))
      .then((r) => r ?? { type: "ok" }, (e) => ({ type: "error", message: errorText(e) }) as Reply);
    const reply = await Promise.race([answer, timeout]);
    return { reply: jsonReply(reply), entry };
  } finally {
    clearTimeout(timer);
  }
}
