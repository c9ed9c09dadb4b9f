// Parse a command line against the command table: find the command, then its positional
// arguments and flags, converted to the fields' types with the CLI's defaults applied. Mistakes
// are refused (UsageError, exit 2) with the nearest valid name.
import { closest } from "../protocol/errors";
import { CWD_DEFAULT, PANE_DEFAULT, type Command, type Param } from "./spec";
import { tmuxCommandHint, tmuxFlagHint } from "./tmux-habits";
import { GLOBAL_FLAG_NAMES } from "./globals";

export class UsageError extends Error {}

/** `ws`'s own flags, valid anywhere before `--`. */
export const GLOBAL_FLAGS = GLOBAL_FLAG_NAMES;

/** " (did you mean X?)" naming the nearest valid name, else where the valid names are listed. */
const didYouMean = (word: string, names: readonly string[], show = (s: string) => s, listedBy = "ws --help") => {
  const near = closest(word, names);
  return near === undefined ? ` (${listedBy} lists them)` : ` (did you mean ${show(String(near))}?)`;
};

/** Whether `word` can be the command's first positional argument (a number for an integer one). */
export function takesFirst(cmd: Command, word: string): boolean {
  let first: Param | undefined;
  for (const p of cmd.params) if (p.flag === undefined) {
    first = p;
    break;
  }
  if (!first) return false;
  return first.type !== "integer" || /^-?\d+$/.test(word);
}

export type Found = { command: Command; rest: string[] } | { group: string; commands: Command[]; rest: string[] };

/** The command the leading words name (or the group they start, e.g. `ws workspace`). */
export function findCommand(table: readonly Command[], words: string[]): Found {
  // Plain loops, here and in parseArgs: a CLI call runs them once, and each array builtin that
  // takes a callback (find, filter) costs ~0.5 ms to compile on its first use.
  const first = words[0]!;
  const group: Command[] = [];
  let exact: Command | undefined;
  for (const c of table) {
    if (c.path === first) exact = c;
    else if (c.path.startsWith(first + " ")) group.push(c);
  }
  // A command that is also a group's first word (ws fan N … and ws fan status NAME): a known
  // second word picks the group's command, one the command takes is its own argument, and
  // anything else is a mistyped subcommand.
  if (exact) {
    const second = words[1];
    for (const c of group) if (c.path === `${first} ${second}`) return { command: c, rest: words.slice(2) };
    if (!group.length || second === undefined || second.startsWith("-") || takesFirst(exact, second)) return { command: exact, rest: words.slice(1) };
  }
  if (!group.length) {
    if (first.startsWith("-")) throw new UsageError(`unknown flag ${first}${didYouMean(first, GLOBAL_FLAGS)}`);
    const tops = [...new Set(table.map((c) => c.path.split(" ")[0]!))];
    throw new UsageError(`unknown command ${first}${tmuxCommandHint(first) || didYouMean(first, tops)}`);
  }
  const second = words[1];
  if (second === undefined || second.startsWith("-")) return { group: first, commands: group, rest: words.slice(1) };
  // A third word naming a deeper command (ws agent queue cancel ID) wins over the two-word one's
  // argument; a word the two-word one can't take is a mistyped deeper command.
  const third = words[2];
  const two = `${first} ${second}`;
  const deeper: Command[] = [];
  for (const c of group) if (c.path.startsWith(`${two} `)) deeper.push(c);
  for (const c of deeper) if (c.path === `${two} ${third}`) return { command: c, rest: words.slice(3) };
  for (const c of group)
    if (c.path === two) {
      if (deeper.length && third !== undefined && !third.startsWith("-") && !takesFirst(c, third)) {
        const subs = deeper.map((d) => d.path.slice(two.length + 1));
        throw new UsageError(`unknown command ${two} ${third}${didYouMean(third, subs, (x) => `${two} ${x}`, `ws ${two} --help`)}`);
      }
      return { command: c, rest: words.slice(2) };
    }
  const subs = group.map((c) => c.path.slice(first.length + 1));
  throw new UsageError(`unknown command ${first} ${second}${didYouMean(second, subs, (s) => `${first} ${s}`, `ws ${first} --help`)}`);
}

function convert(cmd: Command, p: Param, raw: string, name: string): unknown {
  switch (p.type) {
    case "integer":
      if (!/^-?\d+$/.test(raw)) throw new UsageError(`${name} for ${cmd.path} is a whole number, got "${raw}"`);
      return Number(raw);
    case "string[]":
      return raw.split(",").filter(Boolean);
    case "integer[]": {
      const items = raw.split(",").filter(Boolean);
      for (const n of items) if (!/^-?\d+$/.test(n)) throw new UsageError(`${name} for ${cmd.path} is whole numbers separated by commas, got "${raw}"`);
      return items.map(Number);
    }
    case "boolean":
      if (raw !== "true" && raw !== "false") throw new UsageError(`${name} for ${cmd.path} is true or false, got "${raw}"`);
      return raw === "true";
    default:
      if (p.accepted && !p.accepted.includes(raw)) throw new UsageError(`${name} for ${cmd.path} is one of ${p.accepted.join(", ")}, got "${raw}"`);
      return raw;
  }
}

const paramName = (p: Param) => (p.flag ? `--${p.flag}` : p.field.toUpperCase());

/** The fields a command's words give, with the CLI's defaults; `env` supplies $WS_PANE_ID. */
export function parseArgs(cmd: Command, words: string[], env: Record<string, string | undefined> = process.env, cwd: () => string | undefined = () => process.cwd()): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...cmd.fixed };
  const positionals: Param[] = [];
  const flags: Param[] = [];
  for (const p of cmd.params) (p.flag ? flags : positionals).push(p);
  let next = 0;
  let flagsEnded = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--" && !flagsEnded) {
      // The command to run, or (for a command that runs none) arguments that start with "-".
      if (!cmd.rest) {
        flagsEnded = true;
        continue;
      }
      fields[cmd.rest.field] = words.slice(i + 1);
      break;
    }
    if (!flagsEnded && w.startsWith("-") && w !== "-" && !/^-\d/.test(w)) {
      const eq = w.indexOf("=");
      const spelled = eq > 0 ? w.slice(0, eq) : w;
      const name = spelled.slice(spelled.startsWith("--") ? 2 : 1);
      let p: Param | undefined;
      for (const f of flags)
        if (f.flag === name) {
          p = f;
          break;
        }
      if (!p) throw new UsageError(`unknown flag ${spelled} for ${cmd.path}${tmuxFlagHint(cmd.path, spelled) || didYouMean(name, flags.map((f) => f.flag!), (s) => `--${s}`, `ws ${cmd.path} --help`)}`);
      let value: unknown;
      if (p.type === "map") {
        // Repeatable: each NAME=VALUE adds to the object.
        const raw = eq > 0 ? w.slice(eq + 1) : words[++i];
        if (raw === undefined) throw new UsageError(`--${name} for ${cmd.path} needs a NAME=VALUE`);
        const at = raw.indexOf("=");
        if (at < 1) throw new UsageError(`--${name} for ${cmd.path} is NAME=VALUE, got "${raw}"`);
        const map = (fields[p.field] ??= {}) as Record<string, string>;
        // Defined, not assigned: a name such as __proto__ is a key like any other.
        Object.defineProperty(map, raw.slice(0, at), { value: raw.slice(at + 1), enumerable: true, writable: true, configurable: true });
        continue;
      }
      if (p.type === "boolean") value = eq > 0 ? convert(cmd, p, w.slice(eq + 1), `--${name}`) : true;
      else {
        const raw = eq > 0 ? w.slice(eq + 1) : words[++i];
        if (raw === undefined) throw new UsageError(`--${name} for ${cmd.path} needs a value`);
        if (p.percentField && raw.endsWith("%")) {
          const pct = raw.slice(0, -1);
          if (!/^\d+$/.test(pct)) throw new UsageError(`--${name} for ${cmd.path} is a whole number of cells or a percentage (40%), got "${raw}"`);
          fields[p.percentField] = Number(pct);
          continue;
        }
        if (p.repeat) {
          ((fields[p.field] ??= []) as string[]).push(raw);
          continue;
        }
        value = convert(cmd, p, raw, `--${name}`);
      }
      // A switch sets its constant (--below: right=false); given false, it leaves the default.
      if (p.value !== undefined) {
        if (value === true) fields[p.field] = p.value;
      } else fields[p.field] = value;
      continue;
    }
    let p = positionals[next++];
    if (!p) throw new UsageError(`too many arguments for ${cmd.path}: "${w}"`);
    // Inside a pane its id may be left out before other arguments (`ws pane keys Enter`,
    // `ws pane send hello`): a word that is not a number can't be a pane id, so it is the next one's.
    if (p.default === PANE_DEFAULT && p.type === "integer" && w !== "" && !/^-?\d+$/.test(w) && positionals[next]) p = positionals[next++]!;
    if (p.many) {
      // Every remaining word, as it is (no comma splitting): `ws pane keys 3 Escape : w q Enter`.
      next--;
      ((fields[p.field] ??= []) as string[]).push(w);
      continue;
    }
    // An empty argument stands for "the default" (`ws pane send "" --enter` in a pane).
    if (w === "" && p.default !== undefined) continue;
    fields[p.field] = convert(cmd, p, w, p.field.toUpperCase());
  }
  if (cmd.oneOf && !cmd.oneOf.some((f) => fields[f] !== undefined)) {
    const names = cmd.oneOf.map((f) => {
      const p = cmd.params.find((q) => q.field === f);
      return p ? paramName(p) : f;
    });
    throw new UsageError(`${cmd.path} needs ${names.join(" or ")}: without them it would do nothing`);
  }
  for (const p of cmd.params) {
    if (fields[p.field] !== undefined || p.value !== undefined) continue;
    if (p.default === PANE_DEFAULT) {
      const id = env.WS_PANE_ID;
      if (id === undefined || id === "") throw new MissingPane();
      fields[p.field] = convert(cmd, p, id, "$WS_PANE_ID");
    } else if (p.default === CWD_DEFAULT) {
      const dir = cwd(); // undefined: let the server choose (ws -H: this directory is not on that machine)
      if (dir !== undefined) fields[p.field] = dir;
    }
    else if (p.default !== undefined) fields[p.field] = p.default;
    else if (p.required) throw new UsageError(`${cmd.path} needs ${paramName(p)} (${p.description})`);
  }
  if (cmd.rest && fields[cmd.rest.field] === undefined) fields[cmd.rest.field] = [];
  return fields;
}

/** A pane-taking command outside a pane with no pane given (exit 1, as a server error would). */
export class MissingPane extends Error {
  constructor() {
    super("which pane? give a pane id (or run this inside a ws pane)");
  }
}
