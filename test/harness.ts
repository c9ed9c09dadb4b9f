// Test harness: a real ws daemon on a private socket directory, real shells in real PTYs, and
// the real socket. Everything waits on conditions with deadlines, never on fixed sleeps.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, chmodSync, existsSync, readFileSync, rmSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");

/** How to run ws: WS_BIN (e.g. dist/ws) when set, else the sources through bun. */
export function wsArgv(): string[] {
  if (process.env.WS_BIN) return [resolve(ROOT, process.env.WS_BIN)];
  return [process.execPath, join(ROOT, "src/main.ts")];
}

export async function waitFor<T>(what: string, check: () => T | undefined | false | null | Promise<T | undefined | false | null>, timeoutMs = 10000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await Bun.sleep(everyMs);
  }
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class TestServer {
  readonly root: string;
  readonly env: Record<string, string>;
  readonly name?: string;

  constructor(opts: { name?: string; env?: Record<string, string> } = {}) {
    this.root = realpathSync(mkdtempSync(join(tmpdir(), "ws-test-")));
    chmodSync(this.root, 0o700);
    this.name = opts.name;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("WS_") && k !== "TMUX" && k !== "BUN_BE_BUN") env[k] = v;
    this.env = {
      ...env,
      XDG_RUNTIME_DIR: this.root,
      HOME: this.root,
      XDG_STATE_HOME: join(this.root, "state"),
      XDG_CONFIG_HOME: join(this.root, "config"),
      SHELL: "/bin/bash",
      PS1: "$ ",
      // Programs compared on screen (less, vim) behave alike only in a UTF-8 locale; a bare CI
      // environment may have none set.
      ...(/utf-?8/i.test(env.LC_ALL || env.LC_CTYPE || env.LANG || "") ? {} : { LC_ALL: "C.UTF-8" }),
      ...opts.env,
    };
    if (process.env.WS_BIN) this.env.WS_BIN = process.env.WS_BIN;
    // Which emulator the daemon uses (src/model/screens.ts): the suite runs with either.
    if (process.env.WS_EMULATOR) this.env.WS_EMULATOR = process.env.WS_EMULATOR;
  }

  get socketDir(): string {
    return join(this.root, "ws");
  }

  get sock(): string {
    return join(this.socketDir, `${this.name ?? "default"}.sock`);
  }

  private nameArgs(): string[] {
    return this.name ? ["-L", this.name] : [];
  }

  async run(args: string[], opts: { stdin?: string; env?: Record<string, string>; cwd?: string } = {}): Promise<RunResult> {
    const proc = Bun.spawn([...wsArgv(), ...this.nameArgs(), ...args], {
      env: { ...this.env, ...opts.env },
      cwd: opts.cwd ?? this.root,
      stdin: opts.stdin !== undefined ? new Blob([opts.stdin]) : "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  }

  /** Run a ws command that must succeed; returns its stdout. */
  async ok(args: string[], opts: { stdin?: string; env?: Record<string, string>; cwd?: string } = {}): Promise<string> {
    const r = await this.run(args, opts);
    if (r.code !== 0) throw new Error(`ws ${args.join(" ")} exited ${r.code}: ${r.stderr || r.stdout}`);
    return r.stdout;
  }

  async start(): Promise<this> {
    await this.ok(["start"]);
    // `ws start` returns once the socket takes connections; the server writes its info file (its
    // pid) just after binding, and a busy machine can run this test first. (A test that moves the
    // socket elsewhere, by -L or the environment, finds it itself.)
    if (existsSync(this.sock)) await waitFor("the server's info file", () => this.daemonPid());
    return this;
  }

  /** One message on one connection; the reply line parsed (both styles). */
  async request(msg: Record<string, unknown>): Promise<any> {
    const line = await this.rawLine(JSON.stringify(msg) + "\n");
    if (line === "ok") return { type: "ok" };
    if (line.startsWith("error: ")) return { type: "error", message: line.slice(7), plain: true };
    return JSON.parse(line);
  }

  /** One protocol-v6 request on its own connection; the parsed reply. */
  v6(msg: Record<string, unknown>): Promise<any> {
    return this.request({ v: 6, ...msg });
  }

  /** Send raw bytes; resolve with the first line back (or all text if the server closes first). */
  rawLine(data: string | Uint8Array, timeoutMs = 10000): Promise<string> {
    return rawExchange(this.sock, data, timeoutMs, true);
  }

  /** Send raw bytes and collect everything until the server closes the connection. */
  rawAll(data: string | Uint8Array, timeoutMs = 10000): Promise<string> {
    return rawExchange(this.sock, data, timeoutMs, false);
  }

  async list(): Promise<any[]> {
    const r = await this.request({ v: 2, type: "workspace_list" });
    if (r.type !== "workspaces") throw new Error(`workspace_list: ${JSON.stringify(r)}`);
    return r.workspaces;
  }

  /** Screen text of a pane, read from its emulator. */
  async screen(pane: number, scrollback = false): Promise<string> {
    const r = await this.request({ v: 6, type: "pane_read", pane, source: scrollback ? "recent" : "visible" });
    if (r.type === "error") throw new Error(r.message);
    return r.text as string;
  }

  async waitScreen(pane: number, pattern: RegExp | string, timeoutMs = 10000): Promise<string> {
    return waitFor(`pane ${pane} to show ${pattern}`, async () => {
      const s = await this.screen(pane);
      return (typeof pattern === "string" ? s.includes(pattern) : pattern.test(s)) ? s : undefined;
    }, timeoutMs);
  }

  /** The running daemon's pid, from the info file it writes beside its socket. */
  daemonPid(): number | undefined {
    try {
      return JSON.parse(readFileSync(this.sock.replace(/\.sock$/, ".info.json"), "utf8")).pid;
    } catch {
      return undefined;
    }
  }

  /** Stop the daemon, politely and then for certain: a test must never leave one running. */
  async stop(): Promise<void> {
    const pid = this.daemonPid();
    try {
      await this.run(["kill-server"]);
    } catch {}
    if (pid !== undefined) {
      const deadline = Date.now() + 5000;
      while (processAlive(pid) && Date.now() < deadline) await Bun.sleep(20);
      if (processAlive(pid)) process.kill(pid, "SIGKILL");
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

function rawExchange(path: string, data: string | Uint8Array, timeoutMs: number, firstLine: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = "";
    let done = false;
    const dec = new TextDecoder();
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      err ? reject(err) : resolve(firstLine ? buf.split("\n")[0]! : buf);
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms (got ${JSON.stringify(buf.slice(0, 200))})`)), timeoutMs);
    const bytes = typeof data === "string" ? Buffer.from(data) : Buffer.from(data);
    Bun.connect({
      unix: path,
      socket: {
        open(s) {
          const off = s.write(bytes);
          (s as any).rest = bytes.subarray(off);
        },
        drain(s) {
          const rest: Buffer = (s as any).rest;
          if (rest?.length) (s as any).rest = rest.subarray(s.write(rest));
        },
        data(s, b) {
          buf += dec.decode(b, { stream: true });
          if (firstLine && buf.includes("\n")) {
            finish();
            s.end();
          }
        },
        close() {
          finish();
        },
        error(_s, e) {
          finish(e);
        },
        connectError(_s, e) {
          finish(e);
        },
      },
    }).catch((e) => finish(e));
  });
}

/**
 * A server started before the file's tests and stopped after them (bun:test's beforeAll and
 * afterAll): `const s = useServer();` at the top of a test file.
 */
export function useServer(opts: ConstructorParameters<typeof TestServer>[0] = {}): TestServer {
  const s = new TestServer(opts);
  beforeAll(() => s.start());
  afterAll(() => s.stop());
  return s;
}

/** Resident memory of a process in kB (Linux /proc). */
export function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : 0;
}

/** Whether a process is running (a zombie waiting to be reaped counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}

/**
 * A started server for the stand-in agent (test/fixtures/stand-in-agent.sh): it finds ws through
 * one executable path, as an installed hook does, and logs the prompts it is sent to `log`.
 */
export async function standInAgentServer(): Promise<{ s: TestServer; log: string }> {
  const s = new TestServer();
  const wrapper = join(s.root, "ws-wrapper");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  const log = join(s.root, "prompts");
  Object.assign(s.env, { STANDIN_WS: wrapper, STANDIN_LOG: log });
  await s.start();
  return { s, log };
}
