// One request per connection, as the spec's simplest client does: connect, write a line, read one
// line back, close. Accepts both reply styles.
import { parseReply } from "../protocol/envelope";
import { serverName } from "./connect";
import { NoAnswer, NoServer, streamLines } from "./stream";

export type ReplyObject = { type: string; [k: string]: unknown };

export { NoAnswer, NoServer };

/** How long a request that is not a wait may go unanswered (the CLI's --timeout changes it, and
 * `WS_REPLY_TIMEOUT_MS` its default: tests wait less). */
export const REPLY_TIMEOUT_MS = replyTimeoutDefault(Number(process.env.WS_REPLY_TIMEOUT_MS));

// Not model/limits.ts's envInt: a CLI call loads nothing of the model (test/cli-light.test.ts).
function replyTimeoutDefault(fromEnv: number): number {
  return Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : 10_000;
}

/** `timeoutMs`: the reply's deadline (0: none, for a wait that may rightly take as long as it takes). */
export async function request(socketPath: string, msg: Record<string, unknown>, timeoutMs = REPLY_TIMEOUT_MS): Promise<ReplyObject> {
  const line = await requestLine(socketPath, JSON.stringify(msg) + "\n", timeoutMs);
  return parseReply(line);
}

/** Send raw text and resolve with the first line of the answer (without its newline). */
export function requestLine(socketPath: string, text: string, timeoutMs = REPLY_TIMEOUT_MS): Promise<string> {
  const { promise, resolve, reject } = Promise.withResolvers<string>(); // see streamLines
  let first: string | undefined;
  streamLines(
    socketPath,
    text,
    (line) => {
      // Settled at the answer, not when the connection has closed after it: a CLI call prints
      // and exits that much sooner.
      first ??= line;
      resolve(first);
      return false;
    },
    timeoutMs,
  ).then(
    () => (first !== undefined ? resolve(first) : reject(new Error(`the ws server on ${serverName(socketPath)} closed the connection without answering`))),
    // A reset after the answer (a server at its connection limit answers, then closes) still answered.
    (e) => (first !== undefined ? resolve(first) : reject(e)),
  );
  return promise;
}
