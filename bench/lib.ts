// Shared bench helpers: private ws and tmux servers, medians, and the ratio line every bench prints.
import { mkdtempSync, chmodSync, readFileSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { FrameDecoder, FRAME_OUTPUT, frameText } from "../src/protocol/frames";

export const ROOT = resolve(import.meta.dir, "..");
export const WS = process.env.WS_BIN ? resolve(process.env.WS_BIN) : join(ROOT, "dist/ws");

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Run `fn` `runs` times and return the median of what it returns (ms or a rate). */
export async function medianOf(runs: number, fn: () => Promise<number>): Promise<{ median: number; all: number[] }> {
  const all: number[] = [];
  for (let i = 0; i < runs; i++) all.push(await fn());
  return { median: median(all), all };
}

/**
 * Waits for a condition that only data arriving can make true: `check()` from the data callback
 * settles it. Nothing polls, so the bench itself takes no core from the servers it measures (a
 * `Bun.sleep(0)` loop spins: each turn is ~7 µs).
 */
export class Arrival {
  private waiting: { cond: () => boolean; resolve: () => void; reject: (e: Error) => void; timer: Timer } | undefined;
  until(cond: () => boolean, ms = 10_000): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        // The condition's own source says what was awaited.
        reject(new Error(`timed out after ${ms} ms waiting for ${cond.toString().slice(0, 200)}`));
      }, ms);
      this.waiting = { cond, resolve, reject, timer };
    });
  }
  /** Data arrived: settle the wait if its condition now holds. */
  check(): void {
    const w = this.waiting;
    if (!w?.cond()) return;
    this.waiting = undefined;
    clearTimeout(w.timer);
    w.resolve();
  }
}

/**
 * One JSON-lines connection to ws: `send` a message, `next` resolves with the next reply line (in
 * order, kept if it came first), `request` is both. Usable at once (it connects in the background).
 * The server closes a connection idle for 2 s (src/server/listener.ts IDLE_CLOSE_MS): once closed,
 * what waits and what is asked after fails saying so, instead of waiting for ever.
 */
export function jsonLines(sock: string) {
  let buf = "";
  const waiters: { resolve: (l: string) => void; reject: (e: Error) => void }[] = [];
  const lines: string[] = [];
  let closed: Error | undefined;
  const ready = Bun.connect({
    unix: sock,
    socket: {
      data(_s, b) {
        buf += Buffer.from(b).toString();
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const l = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const w = waiters.shift();
          w ? w.resolve(l) : lines.push(l);
        }
      },
      close() {
        closed = new Error("ws closed the connection (it closes one idle for 2 s: open a fresh one after a pause)");
        for (const w of waiters.splice(0)) w.reject(closed);
      },
    },
  });
  const next = (): Promise<string> => {
    if (lines.length) return Promise.resolve(lines.shift()!);
    if (closed) return Promise.reject(closed);
    return new Promise<string>((resolve, reject) => waiters.push({ resolve, reject }));
  };
  const send = async (o: unknown): Promise<void> => {
    const s = await ready;
    if (closed) throw closed;
    s.write(JSON.stringify(o) + "\n");
  };
  return {
    send,
    next,
    async request(o: unknown): Promise<string> {
      await send(o);
      return next();
    },
    async close(): Promise<void> {
      if (!closed) (await ready).end();
    },
  };
}

/** One v6 request on a connection of its own: the reply, or a throw with the server's error. */
// biome-ignore lint/suspicious/noExplicitAny: a bench reads whichever reply it asked for
export async function askWs(sock: string, msg: Record<string, unknown>): Promise<any> {
  const c = jsonLines(sock);
  try {
    const r = JSON.parse(await c.request({ v: 6, ...msg }));
    if (r.type === "error") throw new Error(`${msg.type}: ${r.message}`);
    return r;
  } finally {
    await c.close();
  }
}

/** The pid of the ws server listening on `sock` (from its info file). */
export const wsServerPid = (sock: string): number => JSON.parse(readFileSync(sock.replace(/\.sock$/, ".info.json"), "utf8")).pid as number;

/** A client attached at cols × rows, as the person's terminal (panes take its size), once its first
 * frame (the status bar's "main") arrived; `text` is its frames' text, the last 64 KiB. */
export async function attachClient(sock: string, cols: number, rows: number, arrived: Arrival) {
  const decoder = new FrameDecoder();
  let text = "";
  const socket = await Bun.connect({
    unix: sock,
    socket: {
      open: (s) => void s.write(`{"v":1,"type":"attach","cols":${cols},"rows":${rows}}\n`),
      data: (_s, b) => {
        for (const f of decoder.push(b)) if (f.kind === FRAME_OUTPUT) text = (text + frameText(f)).slice(-65536);
        arrived.check();
      },
    },
  });
  await arrived.until(() => text.includes("main"));
  return { socket, text: () => text, clear: () => void (text = "") };
}

export function report(what: string, unit: string, ws: number, tmux: number, lowerIsBetter = true): void {
  const ratio = ws / tmux;
  const verdict = lowerIsBetter ? (ratio < 1 ? "ws faster" : "tmux faster") : ratio > 1 ? "ws faster" : "tmux faster";
  console.log(`${what.padEnd(48)} ws ${ws.toFixed(3).padStart(10)} ${unit}   tmux ${tmux.toFixed(3).padStart(10)} ${unit}   ws/tmux ${ratio.toFixed(2)} (${verdict})`);
}

/** The environments not stopped yet: a bench ended by a signal (a timeout(1), Ctrl-C) stops them
 * too, or their servers, and their flooding panes, would go on loading the machine. */
const running = new Set<BenchEnv>();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    void Promise.all([...running].map((b) => b.stop())).finally(() => process.exit(130));
  });
}

export class BenchEnv {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), "ws-bench-")));
  readonly env: Record<string, string>;
  readonly tmuxSock: string;
  /** `bin`: the ws binary to run (a before/after comparison starts one env per build). */
  constructor(readonly bin = WS) {
    chmodSync(this.root, 0o700);
    this.tmuxSock = join(this.root, "tmux.sock");
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("WS_") && k !== "TMUX") env[k] = v;
    this.env = { ...env, XDG_RUNTIME_DIR: this.root, HOME: this.root, XDG_STATE_HOME: join(this.root, "state"), SHELL: "/bin/sh" };
    running.add(this);
  }
  get wsSock(): string {
    return join(this.root, "ws", "default.sock");
  }
  async run(argv: string[]): Promise<number> {
    const p = Bun.spawn(argv, { env: this.env, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
    return p.exited;
  }
  async start(): Promise<void> {
    if ((await this.run([this.bin, "start"])) !== 0) throw new Error(`${this.bin} start failed (build it with bun run build)`);
    if ((await this.run(["tmux", "-S", this.tmuxSock, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "sh"])) !== 0) throw new Error("tmux new-session failed");
  }
  async stop(): Promise<void> {
    running.delete(this);
    await this.run([this.bin, "kill-server"]);
    await this.run(["tmux", "-S", this.tmuxSock, "kill-server"]);
    rmSync(this.root, { recursive: true, force: true });
  }
}
