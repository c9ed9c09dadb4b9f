// `ws web` for the browser tests: started beside a TestServer, its login URL read from what it
// prints, and Debian's Chromium (driven by playwright-core) found or named missing.
import { existsSync } from "node:fs";
import { type TestServer, waitFor, wsArgv } from "./harness";

export const CHROMIUM = process.env.WS_CHROMIUM ?? "/usr/bin/chromium";

/** Fails with what to install where Chromium is missing. */
export function needChromium(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (Debian's chromium package; .ci/run installs it)`);
}

export interface RunningWeb {
  proc: ReturnType<typeof Bun.spawn>;
  /** The one-time login URL it printed. */
  loginUrl: string;
  /** Its origin (scheme, host and port). */
  base: string;
  /** All it printed until the login URL. */
  out: string;
  stop(): Promise<void>;
}

/** `ws web --listen 127.0.0.1:0` and `extra`, on `s`'s server, once it has printed its login URL. */
export async function startWeb(s: TestServer, extra: string[] = []): Promise<RunningWeb> {
  const proc = Bun.spawn([...wsArgv(), "web", "--listen", "127.0.0.1:0", ...extra], { env: s.env, cwd: s.root, stdout: "pipe", stderr: "pipe" });
  const stop = async () => {
    proc.kill();
    await proc.exited;
  };
  try {
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    let out = "";
    await waitFor("ws web's login URL", async () => {
      const { value, done } = await reader.read();
      if (value) out += new TextDecoder().decode(value);
      if (done) throw new Error(`ws web exited: ${out}`);
      return /https?:\/\/\S+\/login\?token=\S+/.test(out);
    });
    reader.releaseLock();
    const loginUrl = /(https?:\/\/\S+\/login\?token=\S+)/.exec(out)![1]!;
    return { proc, loginUrl, base: loginUrl.slice(0, loginUrl.indexOf("/login")), out, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
