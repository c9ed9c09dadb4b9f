// Preloaded into every `bun test` process (bunfig.toml): once all of its test files have run, no
// process a test started may still be alive. A test's processes are found two ways, because a
// daemon, a pane's program and a tmux server leave the test's process tree (they start their own
// sessions): the test process's descendants, and every process whose environment carries this
// run's mark (`WSTEST_RUN`, inherited from TestServer's environment; each worker of `bun test
// --parallel` makes its own, and runs this check after each of its files). Stragglers are killed
// and the run fails, naming them.
import { afterAll } from "bun:test";
import { endAll, processesCarrying } from "./processes";

const RUN_MARK = "WSTEST_RUN";
process.env[RUN_MARK] ||= `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
const mark = `${RUN_MARK}=${process.env[RUN_MARK]}`;

/** How long processes stopped by a file's last afterAll get to finish exiting. */
const EXIT_GRACE_MS = 10_000;

afterAll(async () => {
  const started = () => processesCarrying(mark, process.pid);
  const deadline = Date.now() + EXIT_GRACE_MS;
  while (started().length && Date.now() < deadline) await Bun.sleep(100);
  const left = await endAll(started);
  if (left.length) throw new Error(`${left.length} process(es) the tests started outlived them (now killed):\n${left.map((p) => `  ${p.pid} ${p.cmd}`).join("\n")}`);
}, EXIT_GRACE_MS + 10_000);
