// Drive a real terminal: a private tmux server (own socket, own TMUX_TMPDIR)
// whose windows run `ws attach` or anything else, read back with capture-pane.
import { afterAll, beforeAll } from "bun:test";
import { TestServer, waitFor, wsArgv } from "./harness";

// "=name:" is an exact session match; a bare "b" would also match a window called "bash".
const at = (name: string) => `=${name}:`;

export class Tmux {
  readonly sock = `wst${process.pid}x${Math.floor(Math.random() * 1e9)}`;
  constructor(readonly env: Record<string, string>) {}

  async tmux(...args: string[]): Promise<string> {
    const p = Bun.spawn(["tmux", "-L", this.sock, "-f", "/dev/null", ...args], { env: { ...this.env, TMUX_TMPDIR: this.env.XDG_RUNTIME_DIR! }, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    if (code !== 0) throw new Error(`tmux ${args.join(" ")}: ${err.trim()}`);
    return out;
  }

  /** A detached session (window) of the given size running a shell command. */
  async open(name: string, command: string, cols = 120, rows = 40): Promise<void> {
    await this.tmux("new-session", "-d", "-s", name, "-x", String(cols), "-y", String(rows), command);
    await this.tmux("set-option", "-t", at(name), "status", "off");
    await this.tmux("set-option", "-t", at(name), "remain-on-exit", "on");
  }

  async capture(name: string): Promise<string> {
    return this.tmux("capture-pane", "-p", "-t", at(name));
  }

  async lines(name: string): Promise<string[]> {
    return (await this.capture(name)).split("\n");
  }

  async keys(name: string, ...keys: string[]): Promise<void> {
    await this.tmux("send-keys", "-t", at(name), ...keys);
  }

  async text(name: string, text: string): Promise<void> {
    await this.tmux("send-keys", "-t", at(name), "-l", text);
  }

  async waitFor(name: string, what: string | RegExp | ((s: string) => boolean), timeoutMs = 10000): Promise<string> {
    const test = typeof what === "function" ? what : typeof what === "string" ? (s: string) => s.includes(what) : (s: string) => what.test(s);
    return waitFor(`tmux ${name} to show ${what}`, async () => {
      const s = await this.capture(name);
      return test(s) ? s : undefined;
    }, timeoutMs, 10);
  }

  async panePid(name: string): Promise<number> {
    return Number((await this.tmux("display-message", "-p", "-t", at(name), "#{pane_pid}")).trim());
  }

  async kill(): Promise<void> {
    try {
      await this.tmux("kill-server");
    } catch {}
  }
}

/**
 * A test file's server and a tmux to run `ws attach` in (it shares the server's environment),
 * the server started before the file's tests (bun:test's beforeAll; a file's own beforeAll runs
 * after it) and both stopped after them: `const { s, tmux } = serverWithTmux();`.
 */
export function serverWithTmux(opts: ConstructorParameters<typeof TestServer>[0] = {}): { s: TestServer; tmux: Tmux } {
  const s = new TestServer(opts);
  const tmux = new Tmux(s.env);
  // Starting a daemon on a loaded machine can take more than bun's default 5 s per hook.
  beforeAll(() => s.start(), 30_000);
  afterAll(async () => {
    await tmux.kill();
    await s.stop();
  }, 30_000);
  return { s, tmux };
}

/** The command a tmux window runs to attach: `ws attach` (after `extra`, global flags; `flags`,
 * attach's own), then its exit status on screen, and the window stays to be read. */
export const attachCommand = (extra = "", flags = "") => `${wsArgv().join(" ")}${extra ? ` ${extra}` : ""} attach${flags ? ` ${flags}` : ""}; echo "[ws exited $?]"; sleep 3600`;
/** ws's default prefix key, as tmux's send-keys names it. */
export const PREFIX = "C-Space";
/** The screen's last line: ws's status line. */
export const statusLine = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";
