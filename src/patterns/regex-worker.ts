// The regex helper process (see regex-pool.ts): `ws __regex-worker` reads match requests as JSON
// lines on stdin and answers each on stdout. A pattern that backtracks for ever holds only this
// process, which the daemon kills (SIGKILL) when the check overruns its budget. A process, not a
// Worker thread: JavaScriptCore's regex JIT does not stop for Worker.terminate().
import { LineReader } from "../line-reader";
import { findLines, findMatch } from "./user-pattern";
import { log } from "../log";

/** The hidden subcommand that runs this (main.ts). */
export const REGEX_WORKER_ARG = "__regex-worker";

/** `lines`: answer with the indices of up to that many matching lines (search), not the first match. */
export type WorkerRequest = { id: number; source: string; flags: string; text: string; lines?: number };
export type WorkerReply = { ready: true } | { id: number; match: ReturnType<typeof findMatch> } | { id: number; lines: number[] } | { id: number; error: string };

function answer(line: string, last: { source?: string; flags?: string; re?: RegExp }): WorkerReply {
  let id = 0;
  try {
    const req = JSON.parse(line) as WorkerRequest;
    id = req.id;
    // A wait re-checks with the same pattern each time its pane prints: compile it once.
    if (last.source !== req.source || last.flags !== req.flags) Object.assign(last, { source: req.source, flags: req.flags, re: new RegExp(req.source, req.flags) });
    return req.lines !== undefined ? { id, lines: findLines(last.re!, req.text, req.lines) } : { id, match: findMatch(last.re!, req.text) };
  } catch (e) {
    return { id, error: (e as Error).message };
  }
}

/** Die with the daemon even while a regex holds this thread: a watchdog thread checks the parent.
 * Resolves once it watches (before that, a regex could hold the thread it needs to start). */
function dieWithParent(parent: number): Promise<void> {
  if (!(parent > 1)) return Promise.resolve();
  const watchdog = `const check = () => { if (process.ppid !== ${parent}) process.kill(process.pid, "SIGKILL"); };
check(); setInterval(check, 500); postMessage("watching");`;
  // Ref'd (the default): it keeps this process up while main() awaits it; main.ts exits when done.
  const w = new Worker(URL.createObjectURL(new Blob([watchdog], { type: "application/javascript" })));
  return new Promise((resolve) => {
    w.onmessage = () => resolve();
    w.onerror = (e) => {
      log.warn(`regex helper: no watchdog: ${e.message}`);
      resolve();
    };
  });
}

/** `ws __regex-worker DAEMON_PID` */
export async function main(args: string[]): Promise<void> {
  await dieWithParent(Number(args[0]));
  const last = {};
  const write = (r: WorkerReply) => process.stdout.write(JSON.stringify(r) + "\n");
  write({ ready: true });
  const lines = new LineReader(Infinity, "a request");
  for await (const chunk of Bun.stdin.stream()) for (const line of lines.push(chunk)) if (line) write(answer(line, last));
}
