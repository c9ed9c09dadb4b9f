// Keystroke echo in one pane while another pane floods in raw mode (the program turned IXON off,
// as full-screen programs and agents do): ws beside tmux, same run. ws: EVENT frame → OUTPUT
// frame on an attached client; tmux: control-mode send-keys → %output, with the flooding pane's
// own %output switched off (refresh-client -A) so the client measures keys, not the flood.
// Also the daemon's peak RSS while it floods. docs/pane-pipeline.md has the why.
import { BenchEnv, median, report } from "./lib";
import { FrameDecoder, FRAME_OUTPUT, encodeEvent, frameText } from "../src/protocol/frames";
import { readFileSync } from "node:fs";

const KEYS = Number(process.env.BENCH_KEYS ?? 150);
const FLOOD = ["python3", "-c", "import tty,os;tty.setraw(0);exec('while 1: os.write(1,b\"x\"*65536)')"];
const CHARS = "abceghijkmnqrtuvwxyz";
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
const jitter = () => Bun.sleep(10 + Math.random() * 20);

async function until(cond: () => boolean, ms = 10000) {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error("timed out");
    await Bun.sleep(0);
  }
}

const rssMB = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]) / 1024;

async function ws(env: BenchEnv): Promise<{ lat: number[]; peak: number }> {
  const { request } = await import("../src/client/request");
  const d = new FrameDecoder();
  let text = "";
  const sock = await Bun.connect({
    unix: env.wsSock,
    socket: {
      open: (s) => void s.write('{"v":1,"type":"attach","cols":120,"rows":40}\n'),
      data: (_s, b) => {
        for (const f of d.push(b)) if (f.kind === FRAME_OUTPUT) text += frameText(f);
      },
    },
  });
  await until(() => text.includes("main"));
  const pid = JSON.parse(readFileSync(env.wsSock.replace(/\.sock$/, ".info.json"), "utf8")).pid;
  const flood = (await request(env.wsSock, { v: 2, type: "split", pane: 1, right: false, focus: false, cwd: "/tmp", command: FLOOD })) as Record<string, unknown>;
  await Bun.sleep(1000);
  const lat: number[] = [];
  let peak = 0;
  const key = (ch: string, modifiers = "") => sock.write(encodeEvent({ Key: { code: { Char: ch }, modifiers, kind: "Press", state: "" } }));
  for (let i = 0; i < KEYS; i++) {
    const ch = CHARS[i % CHARS.length]!;
    text = "";
    const t0 = performance.now();
    key(ch);
    await until(() => text.includes(ch));
    lat.push(performance.now() - t0);
    peak = Math.max(peak, rssMB(pid));
    if (i % 40 === 39) key("u", "CONTROL");
    await jitter();
  }
  key("u", "CONTROL");
  await request(env.wsSock, { v: 2, type: "pane_close", pane: flood.pane as number });
  sock.end();
  return { lat, peak };
}

async function tmux(env: BenchEnv): Promise<{ lat: number[]; peak: number }> {
  const t = (args: string[]) => env.run(["tmux", "-S", env.tmuxSock, ...args]);
  await t(["resize-window", "-x", "120", "-y", "40"]);
  await t(["split-window", "-v", "-d", "-t", "%0", ...FLOOD]);
  const pid = Number((await Bun.$`tmux -S ${env.tmuxSock} display -p '#{pid}'`.text()).trim());
  const p = Bun.spawn(["tmux", "-S", env.tmuxSock, "-C", "attach"], { env: env.env, stdin: "pipe", stdout: "pipe" });
  let out = "";
  (async () => {
    const dec = new TextDecoder();
    for await (const b of p.stdout) out += dec.decode(b);
  })();
  const send = (line: string) => {
    p.stdin.write(line + "\n");
    p.stdin.flush();
  };
  await until(() => out.length > 0);
  send("refresh-client -A '%1:off'");
  await Bun.sleep(1000);
  const lat: number[] = [];
  let peak = 0;
  for (let i = 0; i < KEYS; i++) {
    const ch = CHARS[i % CHARS.length]!;
    out = "";
    const t0 = performance.now();
    send(`send-keys -t %0 -l ${ch}`);
    await until(() => out.split("\n").some((l) => l.startsWith("%output %0 ") && l.includes(ch)));
    lat.push(performance.now() - t0);
    peak = Math.max(peak, rssMB(pid));
    if (i % 40 === 39) send("send-keys -t %0 C-u");
    await jitter();
  }
  send("kill-pane -t %1");
  send("detach");
  p.kill();
  return { lat, peak };
}

const env = new BenchEnv();
await env.start();
try {
  const w = await ws(env);
  const m = await tmux(env);
  console.log(`echo while another pane floods in raw mode, ${KEYS} keys`);
  report("echo p50 while a pane floods", "ms", median(w.lat), median(m.lat));
  report("echo p99 while a pane floods", "ms", p99(w.lat), p99(m.lat));
  report("server RSS peak while a pane floods", "MB", w.peak, m.peak);
} finally {
  await env.stop();
}
