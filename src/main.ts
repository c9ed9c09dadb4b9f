#!/usr/bin/env bun
// One executable, three faces chosen by argv: the daemon (`ws server`), the attach client (`ws`,
// `ws attach`) and the scripting CLI. Heavy modules load only on the paths that need them.
const argv = process.argv.slice(2);

const { runCli } = await import("./cli/index");
await runCli(argv);
