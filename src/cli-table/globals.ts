// ws's global flags as people see them: the one list that --help, `ws help`, the man page and the
// shell completions read (the parser itself is src/cli/global-flags.ts). Each names the values its
// argument takes, as a command's flags do (src/cli-table/value-kind.ts).

export interface GlobalFlag {
  /** The spellings, the usual one first: ["-L", "--socket-name"]. */
  flags: string[];
  /** What it takes, for help ("NAME"); absent for a switch. */
  metavar?: string;
  /** The values completion offers for its argument: a dynamic kind, or "-" for none. */
  values?: string;
  description: string;
}

export const GLOBALS: readonly GlobalFlag[] = [
  { flags: ["-L", "--socket-name"], metavar: "NAME", values: "server", description: "Use the server named NAME (its own socket)" },
  { flags: ["-H", "--host"], metavar: "HOST", values: "host", description: "Run against the ws server on HOST, through ssh (also WS_HOST; see docs/remote.md)" },
  { flags: ["--all-hosts"], description: "ws dashboard, ws inbox: every host in the hosts file (docs/remote.md)" },
  { flags: ["--local"], description: "Bare ws: a private server that lives as long as this client; inside its panes, commands with --local reach it" },
  { flags: ["--json"], description: "Print replies as JSON lines" },
  {
    flags: ["--timeout"],
    metavar: "MS",
    values: "-",
    description: "How long to wait for the server's reply (default 10000; 0: no limit); a wait's own timeout for ws wait and agent send --wait",
  },
  { flags: ["--help", "-h"], description: "Show help for any command (as ws help COMMAND)" },
  { flags: ["--version", "-v"], description: "Print the version and build (as ws version)" },
];

/** Every spelling of every global flag. */
export const GLOBAL_FLAG_NAMES: readonly string[] = GLOBALS.flatMap((g) => g.flags);
