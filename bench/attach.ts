// The attach stream beside tmux, same run, same box:
//  - keystroke echo latency: a key sent by the client until its echo comes back to the client
//    (ws: EVENT frame → OUTPUT frame; tmux: control-mode send-keys → %output), p50/p99 over
//    jittered keys;
//  - bytes ws sends its client while a pane floods (a few screens, not the flood);
//  - bytes ws sends with three idle shells over 10 s (target 0).
import { Arrival, BenchEnv, median, report } from "./lib";
import { FrameDecoder, FRAME_OUTPUT, encodeEvent, frameText } from "../src/protocol/frames";

const KEYS = Number(process.env.BENCH_KEYS ?? 300);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const jitter = () => Bun.sleep(10 + Math.random() * 20); // typing-like gaps
const CHARS = "abceghijkmnqrtuvwxyz";
/** Keys between two ^U (clear the prompt line). Not a multiple of CHARS' length: the key after a
 * ^U must differ from the first one it cleared, or a client that drew the ^U and that key in
 * one frame gets only the cleared rest of the line, and the key looks lost. */
const KILL_EVERY = 39;

async function wsClient(sock: string) {
  const d = new FrameDecoder();
  const c = { text: "", bytes: 0 };
  const conn = await Bun.connect({
    unix: sock,
    socket: {
      open: (s) => void s.write('{"v":1,"type":"attach","cols":120,"rows":40}\n'),
      data: (_s, b) => {
        for (const f of d.push(b))
          if (f.kind === FRAME_OUTPUT) {
            c.text += frameText(f);
            c.bytes += f.payload.length;
          }
        arrived.check();
      },
    },
  });
  return Object.assign(c, { sock: conn });
}

/** Every client below calls `arrived.check()` as its data comes in. */
const arrived = new Arrival();
const until = (cond: () => boolean, ms = 5000) => arrived.until(cond, ms);

async function wsEcho(env: BenchEnv): Promise<number[]> {
  const c = await wsClient(env.wsSock);
  await until(() => c.text.includes("main"));
  await Bun.sleep(300);
  const lat: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const ch = CHARS[i % CHARS.length]!;
    c.text = "";
    const t0 = performance.now();
    c.sock.write(encodeEvent({ Key: { code: { Char: ch }, modifiers: "", kind: "Press", state: "" } }));
    await until(() => c.text.includes(ch)).catch(() => {
      throw new Error(`ws echo of key ${i} (${ch}) never came back; got ${JSON.stringify(c.text.slice(-200))}`);
    });
    lat.push(performance.now() - t0);
    if (i % KILL_EVERY === KILL_EVERY - 1) c.sock.write(encodeEvent({ Key: { code: { Char: "u" }, modifiers: "CONTROL", kind: "Press", state: "" } }));
    await jitter();
  }
  // Leave the prompt empty for the next bench.
  c.sock.write(encodeEvent({ Key: { code: { Char: "u" }, modifiers: "CONTROL", kind: "Press", state: "" } }));
  await Bun.sleep(100);
  c.sock.end();
  return lat;
}

async function tmuxEcho(env: BenchEnv): Promise<number[]> {
  const p = Bun.spawn(["tmux", "-S", env.tmuxSock, "-C", "attach"], { env: env.env, stdin: "pipe", stdout: "pipe" });
  let out = "";
  (async () => {
    const dec = new TextDecoder();
    for await (const b of p.stdout) {
      out += dec.decode(b);
      arrived.check();
    }
  })();
  await until(() => out.length > 0);
  await Bun.sleep(300);
  const lat: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const ch = CHARS[i % CHARS.length]!;
    out = "";
    const t0 = performance.now();
    p.stdin.write(`send-keys -l ${ch}\n`);
    p.stdin.flush();
    await until(() => /%output %\d+ .*/.test(out) && out.split("\n").some((l) => l.startsWith("%output") && l.includes(ch)));
    lat.push(performance.now() - t0);
    if (i % KILL_EVERY === KILL_EVERY - 1) {
      p.stdin.write("send-keys C-u\n");
      p.stdin.flush();
    }
    await jitter();
  }
  p.stdin.write("detach\n");
  p.stdin.flush();
  p.kill();
  return lat;
}

async function wsFloodBytes(env: BenchEnv): Promise<{ sent: number; printed: number }> {
  const c = await wsClient(env.wsSock);
  await until(() => c.text.includes("main"));
  const before = c.bytes;
  const { request } = await import("../src/client/request");
  // 40 MB of changing text.
  await request(env.wsSock, { v: 2, type: "pane_send", pane: 1, text: "head -c 30000000 /dev/urandom | base64; echo flood-$((40+2))-done", enter: true });
  const t0 = performance.now();
  // Looked for on the screen the frames draw, not in their bytes: a frame leaves out cells that
  // already hold the right character, so the word may arrive in pieces.
  const { Terminal } = await import("@xterm/headless");
  const screen = new Terminal({ cols: 120, rows: 40, allowProposedApi: true, scrollback: 0 });
  let seen = 0;
  let shown = false;
  const shownNow = () => {
    const t = c.text;
    if (t.length > seen) {
      const fresh = t.slice(seen);
      seen = t.length;
      screen.write(fresh, () => {
        const b = screen.buffer.active;
        for (let y = 0; y < 40 && !shown; y++) shown = !!b.getLine(b.viewportY + y)?.translateToString(true).includes("flood-42-done");
        arrived.check();
      });
    }
    return shown;
  };
  await until(shownNow, 120000);
  const sent = c.bytes - before;
  console.log(`flood: ${((performance.now() - t0) / 1000).toFixed(1)} s until the last line was on the client's screen`);
  c.sock.end();
  return { sent, printed: 40_540_000 };
}

async function wsIdleBytes(env: BenchEnv): Promise<number> {
  const { request } = await import("../src/client/request");
  await request(env.wsSock, { v: 1, type: "split", pane: 1, right: true, cwd: env.root, command: [], focus: false });
  await request(env.wsSock, { v: 1, type: "split", pane: 1, right: false, cwd: env.root, command: [], focus: false });
  const c = await wsClient(env.wsSock);
  await until(() => c.text.includes("main"));
  await Bun.sleep(1000); // let the shells print their prompts
  const before = c.bytes;
  await Bun.sleep(10_000);
  c.sock.end();
  return c.bytes - before;
}

const env = new BenchEnv();
await env.start();
try {
  const ws = await wsEcho(env);
  const tm = await tmuxEcho(env);
  report("keystroke echo p50", "ms", median(ws), median(tm));
  report("keystroke echo p99", "ms", pct(ws, 0.99), pct(tm, 0.99));
  const flood = await wsFloodBytes(env);
  console.log(`flood: pane printed ~${(flood.printed / 1e6).toFixed(0)} MB, ws sent its client ${(flood.sent / 1e6).toFixed(2)} MB (${((100 * flood.sent) / flood.printed).toFixed(1)}%)`);
  const idle = await wsIdleBytes(env);
  console.log(`idle: three shells, 10 s: ws sent its client ${idle} bytes (target 0)`);
} finally {
  await env.stop();
}
