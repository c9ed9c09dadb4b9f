// One request per connection, as the spec's simplest client does: connect, write a line, read one
// line back, close. Accepts both reply styles.
import { parseReply } from "../protocol/envelope";

export type ReplyObject = { type: string; [k: string]: unknown };

export class NoServer extends Error {}

export async function request(socketPath: string, msg: Record<string, unknown>, timeoutMs = 15000): Promise<ReplyObject> {
  const line = await requestLine(socketPath, JSON.stringify(msg) + "\n", timeoutMs);
  return parseReply(line);
}

/** Send raw text and resolve with the first line of the answer (without its newline). */
export function requestLine(socketPath: string, text: string, timeoutMs = 15000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = "";
    let settled = false;
    const dec = new TextDecoder();
    const finish = (err: Error | undefined, line?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      err ? reject(err) : resolve(line!);
    };
    const timer = setTimeout(() => finish(new Error(`no answer from ${socketPath} within ${timeoutMs} ms`)), timeoutMs);
    Bun.connect({
      unix: socketPath,
      socket: {
        open(s) {
          const bytes = Buffer.from(text);
          let off = s.write(bytes);
          // A long line may not fit the kernel buffer at once; the rest goes on drain.
          (s as unknown as { rest?: Buffer }).rest = off < bytes.length ? bytes.subarray(off) : undefined;
        },
        drain(s) {
          const st = s as unknown as { rest?: Buffer };
          if (!st.rest) return;
          const n = s.write(st.rest);
          st.rest = n < st.rest.length ? st.rest.subarray(n) : undefined;
        },
        data(s, bytes) {
          buf += dec.decode(bytes, { stream: true });
          const nl = buf.indexOf("\n");
          if (nl >= 0) {
            finish(undefined, buf.slice(0, nl));
            s.end();
          }
        },
        close() {
          if (buf) finish(undefined, buf);
          else finish(new Error("the server closed the connection without answering"));
        },
        connectError(_s, err) {
          finish(new NoServer(`no ws server on ${socketPath} (${(err as NodeJS.ErrnoException).code ?? err.message})`));
        },
        error(_s, err) {
          finish(err);
        },
      },
    }).catch((err) => finish(new NoServer(`no ws server on ${socketPath} (${err.code ?? err.message})`)));
  });
}
