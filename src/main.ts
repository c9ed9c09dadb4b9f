#!/usr/bin/env bun
// One executable, three faces chosen by argv: the daemon (`ws server`), the attach client (`ws`,
// `ws attach`) and the scripting CLI. Heavy modules load only on the paths that need them.
// The CLI is part of the entry chunk: a CLI call is the common case, and loading its modules as
// further chunks cost such a call ~0.7 ms. Its module bodies only define things (its tables are
// parsed on first use), so the other faces pay next to nothing for it.
import { runCli } from "./cli/index";

const argv = process.argv.slice(2);

/** --help or -h before any `--` (after it, words belong to a command ws runs). */
function wantsHelp(args: string[]): boolean {
  for (const a of args) {
    // After `ws tmux`, the words are tmux's (split-window -h), as after `--`.
    if (a === "--" || a === "tmux") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}

// The other faces are dynamic imports: with the split ESM build (build.ts) they load only their chunks.
(async () => {
  // Run as `tmux` (the link `ws tmux-shim` puts first on PATH; `__tmux` from the sources): the
  // tmux shim, nothing of the CLI.
  const asTmux = (process.argv0 || "").split("/").pop() === "tmux";
  if (asTmux || argv[0] === "__tmux") {
    process.exit(await (await import("./tmux-shim/main")).main(asTmux ? argv : argv.slice(1)));
  }
  // Agent hooks run `ws report` on every event: load only that module and what it needs
  // (client/request, libc, safe-text). The CLI's modules are in the entry chunk, but they only
  // define things: none of its tables is parsed. (`ws report --help` is the CLI's: help comes
  // from the command table.)
  if (argv[0] === "report" && !wantsHelp(argv)) {
    await (await import("./cli/report")).main(argv.slice(1));
    process.exit(0);
  }
  // An agent's PermissionRequest hook (the approvals inbox): the same fast path as report.
  if (argv[0] === "approval-hook" && !wantsHelp(argv)) {
    await (await import("./cli/approval-hook")).main(argv.slice(1));
    process.exit(0);
  }
  // The daemon's regex helper (REGEX_WORKER_ARG, src/patterns/regex-worker.ts): nothing of the CLI either.
  if (argv[0] === "__regex-worker") {
    await (await import("./patterns/regex-worker")).main(argv.slice(1));
    process.exit(0);
  }
  await runCli(argv);
  // Done: exit now rather than when the event loop has wound down (a closing socket, a cleared
  // timer). console.log has written everything already; it writes synchronously.
  process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
})();
