// The argv ws runs for a pane the shim starts, and the way back from it to what the tool asked for
// (#{pane_start_command}, respawn-pane without a command), quoted as tmux 3.3 quotes it.

// Sets TMUX_PANE to the pane's own id (known only once it runs: ws gives it WS_PANE_ID), then
// becomes the program; no command runs the user's shell. The script is fixed; the words are argv.
export const PANE_SCRIPT = 'TMUX_PANE="%$WS_PANE_ID"; export TMUX_PANE; [ $# -gt 0 ] || set -- "${SHELL:-/bin/sh}"; exec "$@"';
/** The wrapper's $0 for argv (several words) and for a shell command line (one word, run by SHELL -c). */
const ARGV_ARG0 = "sh";
const LINE_ARG0 = "tmux-sh";

/** The argv ws runs for a tmux command: one word is a shell command line, several are argv (tmux's spawn.c). */
export function wrapCommand(shell: string, words: string[], env: Record<string, string> = {}): string[] {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const cmd = words.length === 1 ? [LINE_ARG0, shell, "-c", words[0]!] : [ARGV_ARG0, ...words];
  return ["/usr/bin/env", ...vars, "/bin/sh", "-c", PANE_SCRIPT, ...cmd];
}

/** What the tool asked a pane to run, from the argv ws runs: the shim's wrapper taken off (the
 * command line or the argv it was given); a pane ws started itself is its argv as it is. */
export function startCommandOf(argv: string[]): string[] {
  const at = argv.indexOf(PANE_SCRIPT);
  if (argv[0] !== "/usr/bin/env" || at < 2 || argv[at - 1] !== "-c" || argv[at - 2] !== "/bin/sh") return argv;
  const rest = argv.slice(at + 1);
  if (rest[0] === LINE_ARG0 && rest.length === 4 && rest[2] === "-c") return [rest[3]!];
  if (rest[0] === ARGV_ARG0) return rest.slice(1);
  return argv;
}

/** Characters that make tmux put a word in double quotes, or else in single quotes. */
const DQUOTED = " #';${}%";
const SQUOTED = ' "';

/** One word as tmux 3.3's args_escape writes it: quoted when it must be, control characters in C style. */
export function tmuxEscape(s: string): string {
  if (s === "") return "''";
  const quotes = [...s].some((c) => DQUOTED.includes(c)) ? '"' : [...s].some((c) => SQUOTED.includes(c)) ? "'" : "";
  if (s[0] !== " " && [...s].length === 1 && (quotes || s === "~")) return `\\${s}`;
  let escaped = "";
  for (const c of s) escaped += visChar(c, quotes === '"');
  if (quotes === "'") return `'${escaped}'`;
  if (quotes === '"') return escaped.startsWith("~") ? `"\\${escaped}"` : `"${escaped}"`;
  return escaped.startsWith("~") ? `\\${escaped}` : escaped;
}

const C_STYLE: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\x07": "\\a", "\v": "\\v", "\f": "\\f", "\0": "\\0", "\\": "\\\\" };

/** vis(3) with VIS_OCTAL | VIS_CSTYLE | VIS_TAB | VIS_NL (and VIS_DQ inside double quotes). */
function visChar(c: string, dq: boolean): string {
  if (C_STYLE[c]) return C_STYLE[c]!;
  if (dq && (c === '"' || c === "$")) return `\\${c}`;
  const n = c.codePointAt(0)!;
  if (n < 0x20 || n === 0x7f || (n >= 0x80 && n < 0xa0)) return `\\${n.toString(8).padStart(3, "0")}`;
  return c;
}

/** An argv as tmux shows it (#{pane_start_command}): each word escaped, joined with spaces. */
export const tmuxArgv = (words: string[]) => words.map(tmuxEscape).join(" ");
