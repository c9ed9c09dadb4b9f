// `bun run test`: the whole suite as one `bun test --parallel`, three workers that each take the
// next test file as they finish one, the slowest files first (by test/timings.json, the per-file
// times of an earlier run), so they end within a file's time of each other. Three on a 2-core CI
// machine, as most of a test's time is waiting on real shells, PTYs and sockets, not the CPU:
// 45 of the files on 2 otherwise idle cores took 80 s with two workers, 59 s with three (the
// cores 76% busy) and 52 s with four (86%); three leaves the timing-bound tests room. The last lines printed are the totals, in bun's own form (` N pass`, ` N fail`),
// which .ci/run reads. Arguments go to `bun test` (e.g. -t NAME).
//   bun run test                          WS_TEST_WORKERS=1 bun run test   (one file at a time)
//   bun run test --update-timings         (runs the suite and rewrites test/timings.json)
// The tests run the compiled binary (WS_BIN=dist/ws, built here first from the sources), as a
// person does: the suite starts thousands of ws processes, and each starts in ~0.1 s where
// `bun src/main.ts` transpiles the sources again (~0.5–1 s on a loaded 2-core machine), which
// makes the suite about twice as fast. WS_BIN=PATH runs another build; WS_BIN= (empty) the sources.
import { readdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
if (process.env.WS_BIN === undefined) {
  const build = Bun.spawnSync([process.execPath, "run", "build.ts"], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) {
    process.stdout.write(`${build.stdout}${build.stderr}\nthe build failed: no test ran\n 0 pass\n 1 fail\n`);
    process.exit(1);
  }
  process.env.WS_BIN = "dist/ws";
}
const workers = Math.max(1, Number(process.env.WS_TEST_WORKERS ?? 3));
const files = readdirSync(join(root, "test"))
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => `test/${f}`);

/** Written, and flushed before what comes next: the totals must be the output's last lines. */
const print = (text: string) => new Promise<void>((done) => process.stdout.write(text, () => done()));

/** Each failed test's line with the lines bun printed for it (its error), at most 40 each: repeated
 * after the whole output, so a log that keeps only its tail still says what failed and why. */
function failureExcerpts(text: string): string[] {
  const lines = text.split("\n");
  const excerpts: string[] = [];
  let start = 0;
  for (const [i, line] of lines.entries()) {
    // bun's own summary at the end names the failed tests again, without their errors.
    if (/^\d+ tests? failed:$/.test(line)) break;
    if (line.startsWith("(fail)")) excerpts.push(lines.slice(Math.max(start, i - 40), i + 1).join("\n"));
    if (line.startsWith("(pass)") || line.startsWith("(fail)") || line.startsWith("(skip)") || line.endsWith(".test.ts:")) start = i + 1;
  }
  return excerpts;
}

// Each worker runs its files one at a time, each in a fresh global; its after-all check
// (test/leak-check.ts) marks what a file starts with the worker's own mark, so it finds what that
// file left running and nothing of the other workers': no mark is set here for all.
const env = { ...process.env };
delete env.WSTEST_RUN;
const parallel = workers > 1 ? [`--parallel=${workers}`] : [];
const args = ["test", "--timeout", "30000", ...parallel, "--timings=test/timings.json", ...process.argv.slice(2), ...files];
// bun test writes its results to stderr and the tests' own lines go to stdout: one pipe for both
// (`2>&1`, the arguments passed as arguments), shown as they come and kept for the summary.
const p = Bun.spawn(["sh", "-c", 'exec "$0" "$@" 2>&1', process.execPath, ...args], { cwd: root, stdout: "pipe", stderr: "inherit", env });
let text = "";
const decoder = new TextDecoder();
for await (const chunk of p.stdout) {
  const s = decoder.decode(chunk, { stream: true });
  text += s;
  await print(s);
}
const code = await p.exited;
const count = (word: string) => [...text.matchAll(new RegExp(`^ *(\\d+) ${word}$`, "gm"))].reduce((n, m) => n + Number(m[1]), 0);
const pass = count("pass");
const fail = count("fail");
const failures = failureExcerpts(text);
if (failures.length > 0) await print(`\nfailed:\n${failures.join("\n\n")}\n`);
await print(`\nall files:\n ${pass} pass\n ${fail || (code !== 0 ? 1 : 0)} fail\n`);
process.exit(code !== 0 ? 1 : 0);
