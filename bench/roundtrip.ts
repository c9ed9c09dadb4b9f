// Control round trips: requests on one connection (ws JSON lines vs tmux control mode, `tmux -C`),
// and whole CLI invocations (`ws workspace list` vs `tmux list-windows`, `ws pane send` vs
// `tmux send-keys`). Prints medians of several runs and the ws/tmux ratio.
import { BenchEnv, WS, medianOf, report } from "./lib";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const CLI_CALLS = Number(process.env.BENCH_CLI_CALLS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** N sequential workspace_list requests on one ws connection; returns µs per round trip. */
async function wsSocketLoop(sock: string, n: number): Promise<number> {
  const line = Buffer.from('{"v":2,"type":"workspace_list"}\n');
  return new Promise((resolve, reject) => {
    let left = n;
    let started = 0;
    let buf = "";
    Bun.connect({
      unix: sock,
      socket: {
        open(s) {
          started = performance.now();
          s.write(line);
        },
        data(s, bytes) {
          buf += Buffer.from(bytes).toString();
          let nl;
          while ((nl = buf.indexOf("\n")) >= 0) {
            buf = buf.slice(nl + 1);
            if (--left === 0) {
              resolve(((performance.now() - started) * 1000) / n);
              s.end();
              return;
            }
            s.write(line);
          }
        },
        error(_s, e) {
          reject(e);
        },
      },
    });
  });
}

/** N sequential list-windows through tmux control mode; returns µs per round trip. */
async function tmuxControlLoop(sock: string, env: Record<string, string>, n: number): Promise<number> {
  const p = Bun.spawn(["tmux", "-S", sock, "-C", "attach"], { env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const reader = p.stdout.getReader();
  let buf = "";
  const waitEnd = async () => {
    for (;;) {
      const i = buf.search(/^%(end|error) /m);
      if (i >= 0) {
        const nl = buf.indexOf("\n", i);
        if (nl >= 0) {
          buf = buf.slice(nl + 1);
          return;
        }
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("tmux control mode ended");
      buf += Buffer.from(value).toString();
    }
  };
  // The attach itself answers with one %begin/%end block first.
  await waitEnd();
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    p.stdin.write("list-windows\n");
    p.stdin.flush();
    await waitEnd();
  }
  const us = ((performance.now() - started) * 1000) / n;
  p.stdin.end();
  p.kill();
  return us;
}

async function cliLoop(b: BenchEnv, argv: string[], n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) if ((await b.run(argv)) !== 0) throw new Error(`${argv.join(" ")} failed`);
  return (performance.now() - started) / n;
}

const b = new BenchEnv();
await b.start();
try {
  console.log(`round trips: ${REQUESTS} requests on one connection, ${CLI_CALLS} CLI calls, median of ${RUNS} runs`);
  const wsSock = await medianOf(RUNS, () => wsSocketLoop(b.wsSock, REQUESTS));
  const tmuxSock = await medianOf(RUNS, () => tmuxControlLoop(b.tmuxSock, b.env, REQUESTS));
  report("socket round trip: workspace_list vs -C list-windows", "µs", wsSock.median, tmuxSock.median);
  const wsList = await medianOf(RUNS, () => cliLoop(b, [WS, "workspace", "list"], CLI_CALLS));
  const tmuxList = await medianOf(RUNS, () => cliLoop(b, ["tmux", "-S", b.tmuxSock, "list-windows"], CLI_CALLS));
  report("CLI: ws workspace list vs tmux list-windows", "ms", wsList.median, tmuxList.median);
  // One character each (ws refuses an empty send: it would do nothing); the shells' lines grow.
  const wsSend = await medianOf(RUNS, () => cliLoop(b, [WS, "pane", "send", "1", "x"], CLI_CALLS));
  const tmuxSend = await medianOf(RUNS, () => cliLoop(b, ["tmux", "-S", b.tmuxSock, "send-keys", "-t", "0", "x"], CLI_CALLS));
  report("CLI: ws pane send vs tmux send-keys", "ms", wsSend.median, tmuxSend.median);
} finally {
  await b.stop();
}
