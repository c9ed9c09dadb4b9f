// One request per connection, as the spec's simplest client does: connect, write a line, read one
// line back, close. Accepts both reply styles.
import { parseReply } from "../protocol/envelope";
import { NoServer, streamLines } from "./stream";

export type ReplyObject = { type: string; [k: string]: unknown };

export { NoServer };

export async function request(socketPath: string, msg: Record<string, unknown>, timeoutMs = 15000): Promise<ReplyObject> {
  const line = await requestLine(socketPath, JSON.stringify(msg) + "\n", timeoutMs);
  return parseReply(line);
}

/** Send raw text and resolve with the first line of the answer (without its newline). */
export function requestLine(socketPath: string, text: string, timeoutMs = 15000): Promise<string> {
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
    () => (first !== undefined ? resolve(first) : reject(new Error("the server closed the connection without answering"))),
    // A reset after the answer (a server at its connection limit answers, then closes) still answered.
    (e) => (first !== undefined ? resolve(first) : reject(e)),
  );
  return promise;
}
