#!/usr/bin/env bun
// One executable, three faces chosen by argv: the daemon (`ws server`), the attach client (`ws`,
// `ws attach`) and the scripting CLI. Heavy modules load only on the paths that need them.
const argv = process.argv.slice(2);

/** --help or -h before any `--` (after it, words belong to a command ws runs). */
function wantsHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end >= 0 ? args.slice(0, end) : args).some((a) => a === "--help" || a === "-h");
}

// Each face is a dynamic import: with the split ESM build (build.ts) a call loads only its chunks.
(async () => {
  // Agent hooks run `ws report` on every event: load only that module, nothing of the CLI.
  // (`ws report --help` is the CLI's: help comes from the command table.)
  if (argv[0] === "report" && !wantsHelp(argv)) {
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
