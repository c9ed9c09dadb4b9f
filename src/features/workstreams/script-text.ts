// Which elements of a template's argv are script text: code some interpreter runs (the argument
// of `bash -lc`, `python3 -c`, `node -e`, `nvim -c`, an awk program, a remote command for ssh, …).
// A placeholder's value comes from a branch or PR name someone else chose, so it may fill an argv
// element only where it stays data; in script text it would be code. Pure: templates.ts refuses a
// template that puts one there, and the pane reads the value from the environment instead.

/** How an interpreter takes script text. Flags are matched after its name anywhere in the argv, so
 * `env sh -c`, `nice -n 5 bash -c`, `docker exec c sh -c` are found too. */
interface Interpreter {
  /** Short flags whose argument is script text (`c` for `-c`, clusters like `-lc` and `-ec` too). */
  short?: string;
  /** Long (or single-dash long) options whose argument is script text: `--eval`, `--eval=CODE`. */
  long?: string[];
  /** Short flags that take an argument that is not script (`awk -F :`), so operands are counted right. */
  argShort?: string;
  /** A shell: after `-c`, every element up to the first operand is the script (`bash -c -e 'x'`). */
  shell?: boolean;
  /** The first operand is the program unless a script flag or one of these gave it (awk, sed). */
  firstOperand?: string;
  /** Every operand after the first is a command line (ssh HOST CMD…), or every one (watch). */
  operandsAfter?: number;
  /** After this flag, everything is the command (pwsh -Command). */
  restAfter?: string[];
  /** Operands that start a command (`+cmd` for vim): an element starting with `+`. */
  plusCommands?: boolean;
  /** Subcommands whose next operand is script text (`deno eval CODE`). */
  evalSubcommands?: string[];
}

const SHELL: Interpreter = { short: "cC", long: ["--command", "--init-command"], shell: true };
const EVAL_E: Interpreter = { short: "e", long: ["--eval"] };

const INTERPRETERS: Record<string, Interpreter> = {
  ...Object.fromEntries(["sh", "bash", "zsh", "dash", "ksh", "mksh", "pdksh", "ash", "yash", "posh", "fish", "csh", "tcsh", "rc", "es", "elvish", "nu", "xonsh", "osh", "ysh", "busybox"].map((s) => [s, SHELL])),
  pwsh: { restAfter: ["-c", "-command", "-e", "-ec", "-encodedcommand"] },
  powershell: { restAfter: ["-c", "-command", "-e", "-ec", "-encodedcommand"] },
  python: { short: "c", argShort: "WXm" },
  pypy: { short: "c", argShort: "WXm" },
  node: { short: "ep", long: ["--eval", "--print"], argShort: "r" },
  nodejs: { short: "ep", long: ["--eval", "--print"], argShort: "r" },
  bun: { short: "ep", long: ["--eval", "--print"] },
  deno: { long: ["--eval"], evalSubcommands: ["eval"] },
  "ts-node": { short: "ep", long: ["--eval", "--print"] },
  tsx: { short: "ep", long: ["--eval", "--print"] },
  perl: { short: "eE", argShort: "IMmx" },
  ruby: { short: "e", argShort: "Ir" },
  php: { short: "rRBE" },
  lua: EVAL_E,
  luajit: EVAL_E,
  rscript: EVAL_E,
  r: EVAL_E,
  julia: { short: "eE", long: ["--eval", "--print"] },
  osascript: EVAL_E,
  groovy: EVAL_E,
  scala: EVAL_E,
  elixir: { short: "e", long: ["--eval"] },
  erl: { long: ["-eval", "-s", "-run"] },
  expect: { short: "c" },
  awk: { long: ["--source"], argShort: "Fvf", firstOperand: "f", short: "e" },
  gawk: { long: ["--source"], argShort: "Fvf", firstOperand: "f", short: "e" },
  mawk: { argShort: "Fvf", firstOperand: "f" },
  nawk: { argShort: "Fvf", firstOperand: "f" },
  sed: { short: "e", long: ["--expression"], argShort: "fl", firstOperand: "ef" },
  vim: { short: "c", long: ["--cmd"], plusCommands: true },
  nvim: { short: "c", long: ["--cmd"], plusCommands: true },
  vi: { short: "c", long: ["--cmd"], plusCommands: true },
  view: { short: "c", long: ["--cmd"], plusCommands: true },
  vimdiff: { short: "c", long: ["--cmd"], plusCommands: true },
  gvim: { short: "c", long: ["--cmd"], plusCommands: true },
  ex: { short: "c", long: ["--cmd"], plusCommands: true },
  emacs: { long: ["--eval", "-eval", "--execute"] },
  ssh: { short: "o", argShort: "BbcDEeFIiJLlmOpQRSWw", operandsAfter: 1 },
  watch: { argShort: "nd", operandsAfter: 0 },
  su: { short: "c", long: ["--command", "--session-command"] },
  runuser: { short: "c", long: ["--command", "--session-command"] },
  script: { short: "c", long: ["--command"] },
  "nix-shell": { long: ["--run", "--command"] },
  npx: { short: "c", long: ["--call"] },
  git: { short: "c" },
  env: { short: "S", long: ["--split-string"], argShort: "uC" },
  gdb: { long: ["-ex", "--eval-command", "-iex"] },
  lldb: { short: "o", long: ["--one-line"] },
};

/** Options that take script text in any program we don't know: `-c`, `-e`, clusters ending in
 * them (`-lc`, `-ne`), and the usual long names. A placeholder right after one is refused. */
const GENERIC_SHORT = /^-[A-Za-z]{0,2}[ce]$/;
const GENERIC_LONG = /^--(command|eval|exec|execute|expression|print|run|script|init-command|cmd|source)$/;

/** The interpreter an argv element names: its file name, lower case, version suffix dropped
 * (`/usr/bin/python3.12` is python). */
export function interpreterName(element: string): string {
  const base = element.split("/").pop()!.toLowerCase().replace(/\.exe$/, "");
  return base.replace(/[\d.]+$/, "") || base;
}

/** For each element index that is script text, the interpreter and how it got it (`bash -lc`). */
export function scriptElements(argv: readonly string[]): Map<number, string> {
  const out = new Map<number, string>();
  const mark = (i: number, how: string) => {
    if (i < argv.length && !out.has(i)) out.set(i, how);
  };
  // Programs we don't know: an element right after a -c/-e style option.
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i - 1]!;
    if (GENERIC_SHORT.test(a) || GENERIC_LONG.test(a)) mark(i, `${interpreterName(argv[0] ?? "")} ${a}`);
    const eq = /^(--[a-z-]+)=/.exec(argv[i]!);
    if (eq && GENERIC_LONG.test(eq[1]!)) mark(i, `${interpreterName(argv[0] ?? "")} ${eq[1]}`);
  }
  argv.forEach((el, at) => {
    const name = interpreterName(el);
    const spec = Object.hasOwn(INTERPRETERS, name) ? INTERPRETERS[name]! : undefined;
    if (spec) scanInterpreter(argv, at, el.split("/").pop()!, spec, mark);
  });
  return out;
}

function scanInterpreter(argv: readonly string[], at: number, name: string, spec: Interpreter, mark: (i: number, how: string) => void): void {
  let operands = 0;
  let programGiven = false;
  let scriptPending: string | undefined; // a shell's -c seen: the first operand is the script
  for (let i = at + 1; i < argv.length; i++) {
    const a = argv[i]!;
    const how = `${name} ${a}`;
    if (spec.restAfter?.includes(a.toLowerCase())) {
      for (let j = i + 1; j < argv.length; j++) mark(j, how);
      return;
    }
    if (a === "--") {
      // After it, operands only (a shell's script still comes first).
      for (let j = i + 1; j < argv.length; j++) operand(j);
      return;
    }
    if (a.startsWith("--") || (spec.long?.includes(a.split("=")[0]!) && a.startsWith("-"))) {
      const [opt] = a.split("=");
      if (spec.long?.includes(opt!)) {
        programGiven = true;
        if (a.includes("=")) mark(i, `${name} ${opt}`);
        else if (spec.shell) scriptPending = how;
        else mark(i + 1, how), i++;
      }
      continue;
    }
    if ((a.startsWith("-") || (spec.shell && a.startsWith("+"))) && a.length > 1) {
      // A cluster of short flags: a script flag takes the rest of the cluster or the next element.
      const flags = a.slice(1);
      for (let k = 0; k < flags.length; k++) {
        const f = flags[k]!;
        if (spec.short?.includes(f)) {
          programGiven = true;
          if (spec.shell) scriptPending = how;
          else {
            // `-cCODE` (python, perl) carries it attached; `-pe CODE` (node) in the next element.
            // Both are taken as script text: a placeholder belongs in neither.
            if (k < flags.length - 1) mark(i, how);
            mark(i + 1, how);
            if (k === flags.length - 1) i++;
          }
          break;
        }
        if (spec.firstOperand?.includes(f)) programGiven = true;
        if (spec.argShort?.includes(f)) {
          if (k === flags.length - 1) i++; // its argument is the next element
          break;
        }
      }
      continue;
    }
    operand(i);
  }

  function operand(i: number): void {
    const a = argv[i]!;
    if (scriptPending !== undefined) {
      mark(i, scriptPending);
      scriptPending = undefined;
      operands = -Infinity; // the rest are the script's arguments ($0, $1, …): data
      return;
    }
    if (spec.plusCommands && a.startsWith("+")) mark(i, `${name} +command`);
    // A value at the start could begin with + and be a command; {dir}, {repo} and {context} are
    // absolute paths ws makes, so they start with /.
    if (spec.plusCommands && /^\{(?!(?:dir|repo|context)\})[a-z_]+\}/.test(a)) mark(i, `${name} FILE (a value at the start could begin with + and be a command)`);
    if (spec.evalSubcommands?.includes(argv[i - 1]!) && operands === 1) mark(i, `${name} ${argv[i - 1]}`);
    if (spec.firstOperand !== undefined && !programGiven && operands === 0) mark(i, `${name} PROGRAM`);
    if (spec.operandsAfter !== undefined && operands >= spec.operandsAfter) mark(i, `${name} COMMAND`);
    operands++;
  }
}
