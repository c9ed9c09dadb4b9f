#!/usr/bin/env bun
// One executable, three faces chosen by argv: the daemon (`ws server`), the attach client (`ws`,
// `ws attach`) and the scripting CLI. Heavy modules load only on the paths that need them.
const argv = process.argv.slice(2);

// No top-level await: the build is CommonJS with bytecode (see build.ts), which starts 3-10x faster.
(async () => {
  // Agent hooks run `ws report` on every event: load only that module, nothing of the CLI.
  if (argv[0] === "report") {
    await (await import("./features/agents/report")).main(argv.slice(1));
    process.exit(0);
  }
  // The daemon's regex helper (REGEX_WORKER_ARG, src/server/regex-worker.ts): nothing of the CLI either.
  if (argv[0] === "__regex-worker") {
    await (await import("./server/regex-worker")).main(argv.slice(1));
    process.exit(0);
  }
  const { runCli } = await import("./cli/index");
  await runCli(argv);
})();
