// Test harness: a real ws daemon on a private socket directory, real shells in real PTYs, and
// the real socket. Everything waits on conditions with deadlines, never on fixed sleeps.
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, mkdirSync, chmodSync, existsSync, readFileSync, rmSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { WorkspaceInfo } from "../src/model/views";
import { endAll, processesCarrying } from "./processes";
import { PANE_KEY_VAR, environValue } from "../src/server/pane-identity";
import { sharedPaneSocketPath } from "../src/paths";
import type { AnyReply, Replies, Request, V6Reply } from "./replies";

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
    // Which emulator the daemon uses (src/model/create-emulator.ts): the suite runs with either.
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

  /** Write this server's keys.toml (before start, or before a ws config reload); returns its path. */
  writeKeys(toml: string): string {
    const dir = join(this.env.XDG_CONFIG_HOME!, "ws");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "keys.toml");
    writeFileSync(file, toml);
    return file;
  }

  async start(): Promise<this> {
    this.relays.clear(); // a new server: new pane keys
    const r = await this.run(["start"]);
    if (r.code !== 0) throw new Error(`ws start exited ${r.code}: ${r.stderr || r.stdout}`);
    const said = (r.stdout + r.stderr).trim() || "(nothing)";
    // `ws start` returns once the socket takes connections; the server writes its info file (its
    // pid) just after binding, and a busy machine can run this test first. (A test that moves the
    // socket elsewhere, by -L or the environment, finds it itself.)
    // A server killed with -9 leaves its info file: wait for one naming a live process.
    if (existsSync(this.sock))
      await waitFor("the server's info file", () => {
        const pid = this.daemonPid();
        return pid !== undefined && processAlive(pid);
      }).catch((e: Error) => {
        // What the server said is the only witness of why it went (kept for a failure under load).
        throw new Error(`${e.message}\nws start said: ${said}\nserver log (last lines):\n${this.serverLogTail()}`);
      });
    return this;
  }

  /** The last lines of this server's log (its state dir), for a failure's message. */
  serverLogTail(lines = 40): string {
    try {
      return readFileSync(join(this.env.XDG_STATE_HOME!, "ws", `${this.name ?? "default"}.log`), "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch (e) {
      return `(no log: ${(e as Error).message})`;
    }
  }

  /** One message on one connection; the reply line parsed (both styles). `T` is the shape the
   * caller reads (AnyReply unless named; not checked, as JSON.parse's result is not): prefer
   * `s.v6()` or `s.call()`, whose replies test/replies.ts types from the registry. */
  async request<T = AnyReply>(msg: Record<string, unknown>): Promise<T> {
    const line = await this.rawLine(JSON.stringify(msg) + "\n");
    if (line === "ok") return { type: "ok" } as T;
    if (line.startsWith("error: ")) return { type: "error", message: line.slice(7), plain: true } as T;
    return JSON.parse(line);
  }

  /** One protocol-v6 request on its own connection; the parsed reply, typed for the messages
   * test/replies.ts names (their reply, or a refusal: check `type` or `code`), else AnyReply. */
  v6<M extends keyof Replies>(msg: Request<M>): Promise<V6Reply<M>>;
  v6(msg: Record<string, unknown>): Promise<AnyReply>;
  v6(msg: Record<string, unknown>): Promise<unknown> {
    return this.request({ v: 6, ...msg });
  }

  /** A v6 request that must succeed: its typed reply; a refusal throws with its code and message. */
  async call<M extends keyof Replies>(msg: Request<M>): Promise<Replies[M]> {
    const r: { type: string; code?: string; message?: string } = await this.request({ v: 6, ...msg });
    if (r.type === "error") throw new Error(`${msg.type}: ${r.code}: ${r.message}`);
    return r as Replies[M];
  }

  /** A connection of its own to this server's socket (the raw-socket client, `Conn`). */
  connect(opts: { read?: boolean } = {}): Promise<Conn> {
    return Conn.open(this.sock, opts);
  }

  /** Send raw bytes; resolve with the first line back (or all text if the server closes first). */
  rawLine(data: string | Uint8Array, timeoutMs = 10000): Promise<string> {
    return rawExchange(this.sock, data, timeoutMs, true);
  }

  /** Send raw bytes and collect everything until the server closes the connection. */
  rawAll(data: string | Uint8Array, timeoutMs = 10000): Promise<string> {
    return rawExchange(this.sock, data, timeoutMs, false);
  }

  async list(): Promise<WorkspaceInfo[]> {
    const r = await this.request<{ type: string; workspaces: WorkspaceInfo[] }>({ v: 2, type: "workspace_list" });
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
    let last = "";
    try {
      return await waitFor(`pane ${pane} to show ${pattern}`, async () => {
        last = await this.screen(pane);
        return (typeof pattern === "string" ? last.includes(pattern) : pattern.test(last)) ? last : undefined;
      }, timeoutMs);
    } catch (e) {
      // What the pane showed instead says why, where "timed out" alone does not.
      throw new Error(`${e instanceof Error ? e.message : String(e)}; the screen was:\n${last.trimEnd()}`);
    }
  }

  /** The running daemon's pid, from the info file it writes beside its socket. */
  daemonPid(): number | undefined {
    try {
      return JSON.parse(readFileSync(this.sock.replace(/\.sock$/, ".info.json"), "utf8")).pid;
    } catch {
      return undefined;
    }
  }

  /** A socket path where a connection is pane `pane` to this server, as a program in it is: a
   * relay process (test/fixtures/pane-relay.ts) carrying the pane's key carries each connection to
   * the panes' socket. One relay a pane; it goes with the server (its environment is this server's). */
  async paneSocket(pane: number): Promise<string> {
    const known = this.relays.get(pane);
    if (known) return known;
    const key = await this.paneKey(pane);
    const path = join(this.root, `relay-${pane}.sock`);
    const relay = Bun.spawn([process.execPath, join(ROOT, "test/fixtures/pane-relay.ts"), path, sharedPaneSocketPath(this.sock)], {
      env: { ...this.env, [PANE_KEY_VAR]: key },
      stdout: "pipe",
      stderr: "inherit",
    });
    const reader = relay.stdout.getReader();
    const first = await reader.read();
    if (!new TextDecoder().decode(first.value).includes("ready")) throw new Error(`pane ${pane}'s relay did not start`);
    this.relays.set(pane, path);
    return path;
  }
  private relays = new Map<number, string>();

  /** Pane `pane`'s key (its WS_PANE_KEY), which a process that is to be that pane carries. */
  async paneKey(pane: number): Promise<string> {
    const info = await this.request({ v: 6, type: "pane_info", pane });
    if (info.type === "error") throw new Error(info.message);
    // Until the program has exec'd, its process carries the server's environment.
    return waitFor(`pane ${pane}'s ${PANE_KEY_VAR}`, () => environValue(info.pid as number, PANE_KEY_VAR));
  }

  /** Stop the daemon, politely and then for certain: a test must never leave one running. */
  async stop(): Promise<void> {
    const pid = this.daemonPid();
    let refused = true;
    try {
      refused = (await this.run(["kill-server"])).code !== 0;
    } catch {}
    // A server kill-server can't reach (a test broke its socket's directory, stopped or killed it)
    // is told by signal, rather than waited for.
    if (pid !== undefined && refused && processAlive(pid)) process.kill(pid, "SIGTERM");
    if (pid !== undefined) {
      const deadline = Date.now() + 5000;
      while (processAlive(pid) && Date.now() < deadline) await Bun.sleep(20);
      if (processAlive(pid)) process.kill(pid, "SIGKILL");
    }
    // What the daemon's panes, this server's tmux or its agents left behind (a program that
    // ignores the hangup, a child started in a process group of its own): everything started with
    // this server's environment goes with it.
    await endAll(() => processesCarrying(`XDG_RUNTIME_DIR=${this.root}`));
    rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * The tests' one raw-socket client: a connection to a ws socket that collects the lines the server
 * sends; `next()` resolves with the next one, within a deadline. Writes the kernel does not take at
 * once are queued and sent on drain, in order. Attach streams (frames) use test/raw-attach.ts.
 */
export class Conn {
  private buf = "";
  private lines: string[] = [];
  private waiters: ((l: string | undefined) => void)[] = [];
  private closeWaiters: (() => void)[] = [];
  closed = false;
  private sock!: Awaited<ReturnType<typeof Bun.connect>>;
  /** Bytes the kernel did not take yet (Bun's write may take only part). */
  private pending: Buffer[] = [];
  private constructor() {}

  /** Connect to the socket at `path`; `read: false` starts paused (see `pause`). */
  static async open(path: string, opts: { read?: boolean } = {}): Promise<Conn> {
    const c = new Conn();
    const dec = new TextDecoder();
    const gone = () => {
      if (c.closed) return;
      c.closed = true;
      for (const w of c.waiters.splice(0)) w(undefined);
      for (const w of c.closeWaiters.splice(0)) w();
    };
    c.sock = await Bun.connect({
      unix: path,
      socket: {
        data(_s, b) {
          c.buf += dec.decode(b, { stream: true });
          let nl: number;
          while ((nl = c.buf.indexOf("\n")) >= 0) {
            const l = c.buf.slice(0, nl);
            c.buf = c.buf.slice(nl + 1);
            const w = c.waiters.shift();
            w ? w(l) : c.lines.push(l);
          }
        },
        drain() {
          c.flush();
        },
        close: gone,
        error: gone,
      },
    });
    if (opts.read === false) c.sock.pause?.();
    return c;
  }

  write(data: string | Uint8Array): void {
    this.pending.push(Buffer.from(data));
    this.flush();
  }

  private flush(): void {
    while (this.pending.length && !this.closed) {
      const head = this.pending[0]!;
      const n = this.sock.write(head);
      if (n < head.length) {
        this.pending[0] = head.subarray(Math.max(0, n));
        return;
      }
      this.pending.shift();
    }
  }

  /** One message as a JSON line. */
  send(msg: Record<string, unknown>): void {
    this.write(JSON.stringify(msg) + "\n");
  }

  /** The next line (parsed when it is JSON, else the text), or throws after timeoutMs. */
  async next(timeoutMs = 10000): Promise<AnyReply | string> {
    const l = await this.nextRaw(timeoutMs);
    return l.startsWith("{") ? JSON.parse(l) : l;
  }

  /** The next line, which must be a JSON message (a reply or an event), or throws after timeoutMs. */
  async nextJson(timeoutMs = 10000): Promise<AnyReply> {
    const l = await this.nextRaw(timeoutMs);
    if (!l.startsWith("{")) throw new Error(`expected a JSON line, got ${JSON.stringify(l.slice(0, 200))}`);
    return JSON.parse(l);
  }

  /** The next line as text, or throws after timeoutMs or when the server closes first. */
  nextRaw(timeoutMs = 10000): Promise<string> {
    const have = this.lines.shift();
    if (have !== undefined) return Promise.resolve(have);
    if (this.closed) return Promise.reject(new Error(`connection closed (left: ${JSON.stringify(this.buf.slice(0, 200))})`));
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        reject(new Error(`no line within ${timeoutMs} ms (partial: ${JSON.stringify(this.buf.slice(0, 200))})`));
      }, timeoutMs);
      const w = (l: string | undefined) => {
        clearTimeout(t);
        l === undefined ? reject(new Error(`connection closed (left: ${JSON.stringify(this.buf.slice(0, 200))})`)) : resolve(l);
      };
      this.waiters.push(w);
    });
  }

  /** Resolves once the server has closed the connection, or throws after timeoutMs. */
  whenClosed(timeoutMs = 10000): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.closeWaiters.splice(this.closeWaiters.indexOf(w), 1);
        reject(new Error(`connection still open after ${timeoutMs} ms`));
      }, timeoutMs);
      const w = () => {
        clearTimeout(t);
        resolve();
      };
      this.closeWaiters.push(w);
    });
  }

  /** Everything still to come, as text, once the server closes the connection (within timeoutMs). */
  async rest(timeoutMs = 10000): Promise<string> {
    try {
      await this.whenClosed(timeoutMs);
    } catch {
      throw new Error(`the server kept the connection open past ${timeoutMs} ms (got ${JSON.stringify(this.unread().slice(0, 200))})`);
    }
    return this.unread();
  }

  /** What has come and not been read yet, lines and any unfinished one. */
  unread(): string {
    return this.lines.map((l) => l + "\n").join("") + this.buf;
  }

  /** Close our writing side (the server sees end of input) and keep reading. */
  shutdown(): void {
    this.sock.shutdown();
  }

  /** Stop reading: what the server sends waits in the kernel, as with a reader that is stuck. */
  pause(): void {
    this.sock.pause?.();
  }

  resume(): void {
    this.sock.resume?.();
  }

  close(): void {
    this.sock.end();
  }
}

/** JSON lines from `c` until one satisfies `until`; returns them all, that one last. `T` names the
 * fields a caller reads (an event's own fields are `unknown` in AnyReply). */
export async function readUntil<T extends AnyReply = AnyReply>(c: Conn, until: (e: T) => boolean, timeoutMs = 10000): Promise<T[]> {
  const out: T[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const e = (await c.nextJson(Math.max(1, deadline - Date.now()))) as T;
    out.push(e);
    if (until(e)) return out;
  }
}

/** Send bytes on a fresh connection; the first line back, or all text if the server closes first. */
async function rawExchange(path: string, data: string | Uint8Array, timeoutMs: number, firstLine: boolean): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const c = await Conn.open(path);
  try {
    c.write(data);
    if (!firstLine) return await c.rest(timeoutMs);
    try {
      return await c.nextRaw(timeoutMs);
    } catch (e) {
      if (!c.closed) throw e;
      return (await c.rest(Math.max(1, deadline - Date.now()))).split("\n")[0]!;
    }
  } finally {
    c.close();
  }
}

/**
 * A server started before the file's tests and stopped after them (bun:test's beforeAll and
 * afterAll): `const s = useServer();` at the top of a test file.
 */
export function useServer(opts: ConstructorParameters<typeof TestServer>[0] = {}): TestServer {
  const s = new TestServer(opts);
  // Starting a daemon on a loaded machine can take more than bun's default 5 s per hook.
  beforeAll(() => s.start(), 30_000);
  afterAll(() => s.stop(), 30_000);
  return s;
}

/** The lines a program has finished writing to a file (each ended by a newline); a line still being
 * written, or a file just created by `>>`, counts for nothing. */
export function writtenLines(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").slice(0, -1);
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
 * one executable path, as an installed hook does, and logs the prompts it is sent to `log`. `env`
 * goes to the server and every ws run (WS_PLATFORM=portable, say).
 */
export async function standInAgentServer(env: Record<string, string> = {}): Promise<{ s: TestServer; log: string }> {
  const s = new TestServer({ env });
  const wrapper = join(s.root, "ws-wrapper");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  const log = join(s.root, "prompts");
  Object.assign(s.env, { STANDIN_WS: wrapper, STANDIN_LOG: log });
  await s.start();
  return { s, log };
}
