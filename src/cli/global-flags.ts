// The CLI's global flags, the one parser: they may come anywhere before `--`: -L NAME, -H HOST,
// --all-hosts, --timeout MS, --local, --json. The CLI reads them (cli/common.ts takeGlobals); a
// remote run drops the host flags from the same parse before handing the line to the far ws
// (cli/remote.ts).
import type { SocketChoice } from "../paths";

export interface Globals extends SocketChoice {
  json: boolean;
  /** -H HOST (repeatable; WS_HOST when none): run against the ws on those machines (src/remote/). */
  hosts?: string[];
  /** --all-hosts: every host in the hosts file (ws dashboard). */
  allHosts?: boolean;
  /** --timeout MS: how long to wait. A wait's own timeout where the command waits (ws wait, agent
   * send --wait), else the reply's deadline (default REPLY_TIMEOUT_MS). NaN when not a number. */
  timeoutMs?: number;
}

/** Which global a run of words set. */
type Flag = "name" | "host" | "allHosts" | "timeout" | "local" | "json";

interface Parsed {
  globals: Globals;
  /** The words that are not global flags, `--` and all after it included. */
  rest: string[];
  /** Each global flag's words, as argv indexes [from, to). */
  spans: { flag: Flag; from: number; to: number }[];
}

function parseGlobals(argv: readonly string[]): Parsed {
  const globals: Globals = { json: false };
  const rest: string[] = [];
  const spans: Parsed["spans"] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const from = i;
    let flag: Flag | undefined;
    if (a === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    // A missing NAME is the empty name, which the CLI refuses.
    if (a === "-L" || a === "--socket-name") (flag = "name"), (globals.name = argv[++i] ?? "");
    else if (a.startsWith("-L") && a.length > 2) (flag = "name"), (globals.name = a.slice(2));
    else if (a.startsWith("--socket-name=")) (flag = "name"), (globals.name = a.slice(14));
    else if (a === "-H" || a === "--host") (flag = "host"), (globals.hosts ??= []).push(argv[++i] ?? "");
    else if (a.startsWith("--host=")) (flag = "host"), (globals.hosts ??= []).push(a.slice(7));
    else if (a === "--all-hosts") (flag = "allHosts"), (globals.allHosts = true);
    else if (a === "--timeout" || a.startsWith("--timeout=")) {
      flag = "timeout";
      const raw = a === "--timeout" ? argv[++i] : a.slice(10);
      globals.timeoutMs = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
    } else if (a === "--local") (flag = "local"), (globals.local = true);
    else if (a === "--json") (flag = "json"), (globals.json = true);
    else rest.push(a);
    if (flag) spans.push({ flag, from, to: Math.min(i + 1, argv.length) });
  }
  return { globals, rest, spans };
}

/** The global flags, and the words left for the command. */
export function takeGlobals(argv: string[]): { globals: Globals; rest: string[] } {
  const { globals, rest } = parseGlobals(argv);
  return { globals, rest };
}

/** The command line without -H/--host/--all-hosts (before `--`), for the remote ws to run. */
export function withoutHostFlags(argv: string[]): string[] {
  const drop = new Set<number>();
  for (const s of parseGlobals(argv).spans) if (s.flag === "host" || s.flag === "allHosts") for (let i = s.from; i < s.to; i++) drop.add(i);
  return argv.filter((_, i) => !drop.has(i));
}
