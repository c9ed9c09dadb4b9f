// `bun run test`: the whole suite as two `bun test` processes side by side, each with half of the
// test files (balanced by size, the heaviest first), so a 2-core CI machine runs it in about half
// the time: most of a test's time is waiting on real shells, PTYs and sockets, not the CPU.
// Each shard's output is printed whole when it ends; the last lines are the totals, in bun's own
// form (` N pass`, ` N fail`), which .ci/run reads. Arguments go to both shards (e.g. -t NAME).
//   bun run test            WS_TEST_SHARDS=1 bun run test   (one process, as `bun test`)
// The tests run the compiled binary (WS_BIN=dist/ws, built here first from the sources), as a
// person does: the suite starts thousands of ws processes, and each starts in ~0.1 s where
// `bun src/main.ts` transpiles the sources again (~0.5–1 s on a loaded 2-core machine), which
// makes the suite about twice as fast. WS_BIN=PATH runs another build; WS_BIN= (empty) the sources.
import { readFileSync, readdirSync, statSync } from "node:fs";
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
const shards = Math.max(1, Number(process.env.WS_TEST_SHARDS ?? 2));
// Files that share a rig built once per test process (the release build under dist/test-release)
// must run in the same shard, or two shards would build it into the same place at once.
const SHARED_RIGS = ["./release-rig"];
const units = new Map<string, { paths: string[]; size: number }>();
for (const f of readdirSync(join(root, "test")).filter((f) => f.endsWith(".test.ts"))) {
  const path = join(root, "test", f);
  const rig = SHARED_RIGS.find((r) => readFileSync(path, "utf8").includes(`"${r}"`));
  const unit = units.get(rig ?? f) ?? { paths: [], size: 0 };
  unit.paths.push(`test/${f}`);
  unit.size += statSync(path).size;
  units.set(rig ?? f, unit);
}
const groups = Array.from({ length: shards }, () => ({ files: [] as string[], size: 0 }));
for (const u of [...units.values()].sort((a, b) => b.size - a.size)) {
  const g = groups.reduce((a, b) => (b.size < a.size ? b : a));
  g.files.push(...u.paths);
  g.size += u.size;
}

/** Written, and flushed before what comes next: the totals must be the output's last lines. */
const print = (text: string) => new Promise<void>((done) => process.stdout.write(text, () => done()));

/** Each failed test's line with the lines bun printed for it (its error), at most 40 each: repeated
 * after every shard's output, so a log that keeps only its tail still says what failed and why. */
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

const runs = groups.map(async (g, i) => {
  // Each shard's own mark, inherited by everything its tests start, so its after-all check
  // (test/leak-check.ts) finds what they left running and nothing of the other shard's.
  const env = { ...process.env, WSTEST_RUN: `${process.pid}-shard${i + 1}` };
  const p = Bun.spawn([process.execPath, "test", "--timeout", "30000", ...process.argv.slice(2), ...g.files], { cwd: root, stdout: "pipe", stderr: "pipe", env });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  // bun test writes its results to stderr; print each shard whole so its lines stay together.
  await print(`\n== shard ${i + 1} of ${shards} (${g.files.length} files)\n${out}${err}`);
  const count = (word: string) => [...`${out}${err}`.matchAll(new RegExp(`^ *(\\d+) ${word}$`, "gm"))].reduce((n, m) => n + Number(m[1]), 0);
  return { code, pass: count("pass"), fail: count("fail"), failures: failureExcerpts(`${out}${err}`) };
});
const results = await Promise.all(runs);
const pass = results.reduce((n, r) => n + r.pass, 0);
const fail = results.reduce((n, r) => n + r.fail, 0);
const failedShard = results.some((r) => r.code !== 0);
const failures = results.flatMap((r) => r.failures);
if (failures.length > 0) await print(`\nfailed, in every shard:\n${failures.join("\n\n")}\n`);
await print(`\nall shards:\n ${pass} pass\n ${fail || (failedShard ? 1 : 0)} fail\n`);
process.exit(failedShard ? 1 : 0);
