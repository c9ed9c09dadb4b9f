// The CLI's exit statuses, in one table: which status a failure's code gives, and what each status
// means. The CLI exits by it (exitFor), docs/cli.md's table is rendered from it (`bun run docs`), and
// test/cli-contract.test.ts runs each row's example.

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
/** A mistake in the command line, as getopt-style tools exit. */
export const EXIT_USAGE = 2;
/** A wait or request that ran out of time, as timeout(1) exits. */
export const EXIT_TIMEOUT = 124;

/** The codes that mean a missing or bad argument, wherever it was found: the CLI's own `usage`,
 * and the server's `invalid_params` (a value it refused: `--size 500%`, `events --types bogus`).
 * The CLI reports the server's as `usage` too, naming the flag typed. */
export const USAGE_CODES: readonly string[] = ["usage", "invalid_params"];

/** The exit status a failure with this code gives. */
export function exitFor(code: string | undefined): number {
  if (code === undefined) return EXIT_FAILED;
  if (USAGE_CODES.includes(code)) return EXIT_USAGE;
  if (code === "timeout") return EXIT_TIMEOUT;
  return EXIT_FAILED;
}

export interface ExitRow {
  /** The status, or "the program's". */
  status: string;
  /** The `--json` error codes that give it (none for a success). */
  codes: string;
  when: string;
}

/** docs/cli.md's table, row by row. */
export const EXIT_TABLE: readonly ExitRow[] = [
  { status: String(EXIT_OK), codes: "", when: "the command did what it says (under `--json`, one object with `v` and `type`)" },
  {
    status: String(EXIT_FAILED),
    codes: "any other code: `no_server`, `no_answer`, `client_failed`, the server's refusals (`pane_not_found`, …)",
    when: "the server refused it; no server answers (`no_server`); the server took the request but did not answer within the reply deadline (`no_answer`: 10 s, `--timeout MS`: it is stopped or stuck; a wait with no `--timeout` asks the server every 2 s whether it still answers, and gives up so when a `hello` goes unanswered for 10 s); the command failed on this side (`client_failed`); `ws search` found nothing (as grep); `ws config reload` reported problems in keys.toml; `ws events` when the server closes its stream; bare `ws` or `ws attach` with no terminal (nothing is started); `ws start --fresh` on a running server",
  },
  {
    status: String(EXIT_USAGE),
    codes: "`usage`; the server's `invalid_params` is reported as `usage` too, `hint.flag` naming the flag typed (`ws call` prints the reply as it came)",
    when: "a missing or bad argument, wherever it is found: an unknown command or flag, \"which pane?\", \"which workstream?\", a value the server refuses (`--size 500%`, `events --types bogus`, `layout select nosuch`), `ws pane send PANE` with no text and no `--enter`, a bad `-L` name, a line of `ws batch` that is no command line (named FILE:LINE)",
  },
  { status: String(EXIT_TIMEOUT), codes: "`timeout`", when: "a wait or request ran out of time, as timeout(1); a wait given `--timeout MS` ends so about MS (plus 2 s of grace) after it began even when the server never answers (stopped or stuck)" },
  {
    status: "the program's",
    codes: "",
    when: "`ws run`, `ws wait exit` and `ws wait command`: the program's or command's exit status (0–255; 1 when a signal ended it or the pane was closed). `--status-ok` makes it 0 whenever the wait answered. `ws popup --wait` likewise",
  },
];

/** The table as docs/cli.md shows it. */
export function exitTableMarkdown(): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return ["| status | `--json` code | when |", "|---|---|---|", ...EXIT_TABLE.map((r) => `| ${r.status} | ${esc(r.codes)} | ${esc(r.when)} |`)].join("\n");
}
