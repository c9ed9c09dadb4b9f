// What every command module of the shim shares: the context a command runs in, the shape of a
// table entry (tmux's cmd_entry), and the small pieces several commands use (the world and its
// formats, a new pane's argv, environment and directory, sizes, -P's print).
import { ShimError, loadWorld, paneExtras, needsExtras, variables, type TPane, type World, type FormatContext } from "../world";
import { expand, isTrue } from "../../ui/tmux-format";
import { has, val, type Parsed } from "../getopt";
import { resolvePane, type Here } from "../target";
import type { ShimState } from "../state";
import { wrapCommand } from "../pane-command";

export interface Ctx {
  sock: string;
  env: Record<string, string | undefined>;
  /** The calling pane's id ($TMUX_PANE). */
  paneId?: number;
  state: ShimState;
  /** Lines for stdout. */
  out: (text: string, opts?: { keepSgr?: boolean }) => void;
  /** The exit status a command sets for the whole call (display-popup: its program's). */
  status?: number;
  /** Where a new pane starts without -c: the caller's directory (the focused pane's at prefix :). */
  cwd?: string;
  /** The person's interface, when the command was typed at prefix : or bound in keys.toml: what
   * tmux does on its client (a message on the status line, the key list, the last window, the
   * mouse) is done there. Undefined in a shim process, a program's call. */
  ui?: ShimUi;
}

/** What tmux's commands do to the client, as the interface does it (src/tmux-shim/interactive.ts). */
export interface ShimUi {
  /** A message on the status line (display-message without -p). */
  display(text: string): void;
  /** Run a ws interface command by name (last-tab, next-layout, …), as its key would. */
  run(name: string): void;
  /** The key bindings, one per line (list-keys). */
  keys(): string[];
  /** An option the interface acts on changed (mouse, synchronize-panes, status, mode-keys, …);
   * `local`: a window's own (setw without -g). Throws ShimError for a value it refuses. */
  option(name: string, value: string, local: boolean): void;
  /** Run each command line of a file (source-file), in order. */
  source(path: string, quiet: boolean): Promise<void>;
}

export type Run = (ctx: Ctx, p: Parsed, name: string) => Promise<void>;

/** One tmux command: its name, alias, getopt template and what carries it out (none: not supported). */
export interface Entry {
  name: string;
  alias?: string;
  template?: string;
  run?: Run;
}

export const entry = (name: string, alias: string | undefined, template?: string, run?: Run): Entry => ({
  name,
  ...(alias ? { alias } : {}),
  ...(template !== undefined ? { template } : {}),
  ...(run ? { run } : {}),
});

/** Accepted, with nothing to do in ws (no key table, hooks, config files or clients to refresh). */
export const nothing: Run = async () => {};

/** A command only the person's interface carries out (ws's interface command `name`); in a shim
 * process it fails, as a command the shim does not carry out. */
export const onInterface =
  (name: string): Run =>
  async (ctx, _p, command) => {
    if (!ctx.ui) throw new ShimError(`${command}: not supported by ws's tmux shim (type it at the prefix key's :)`);
    ctx.ui.run(name);
  };

export async function world(ctx: Ctx): Promise<{ world: World; here: Here }> {
  const w = await loadWorld(ctx.sock);
  return { world: w, here: { pane: ctx.paneId !== undefined ? w.panes.get(ctx.paneId) : undefined } };
}

/** The pane a format is expanded against: -t's, else the one active on the screen (the attached
 * client's), not the caller's, as tmux 3.3 answers display-message from inside another pane;
 * undefined when there is none. A -t that names no pane throws, unless `lenient`. */
export function formatPane(w: World, here: Here, p: Parsed, lenient: boolean): TPane | undefined {
  const t = val(p, "t");
  try {
    return resolvePane(w, t, t === undefined ? {} : here);
  } catch (e) {
    if (!(e instanceof ShimError) || (t !== undefined && !lenient)) throw e;
    return undefined;
  }
}

export type FormatItem = Omit<FormatContext, "sock" | "world" | "extras">;

export async function format(ctx: Ctx, w: World, fmt: string, items: FormatItem[]): Promise<string[]> {
  const extras = needsExtras(fmt) ? await paneExtras(ctx.sock, items.flatMap((i) => (i.pane ? [i.pane.id] : []))) : undefined;
  return items.map((i) => expand(fmt, variables({ ...i, sock: ctx.sock, world: w, extras })));
}

/** The list-* commands' output: each item in `fmt`, those -f's filter keeps. */
export async function printList(ctx: Ctx, w: World, p: Parsed, fmt: string, items: FormatItem[]): Promise<void> {
  const filter = val(p, "f");
  let chosen = items;
  if (filter !== undefined) {
    const keep = await format(ctx, w, filter, items);
    chosen = items.filter((_, i) => isTrue(keep[i]!));
  }
  for (const line of await format(ctx, w, fmt, chosen)) ctx.out(line);
}

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The environment of a pane the shim starts: tmux's (TMUX, this PATH with the shim's tmux) and -e's. */
export function paneEnv(ctx: Ctx, p: Parsed): Record<string, string> {
  const env: Record<string, string> = {};
  if (ctx.env.TMUX) env.TMUX = ctx.env.TMUX;
  if (ctx.env.PATH) env.PATH = ctx.env.PATH;
  for (const e of p.flags.get("e") ?? []) {
    const eq = e.indexOf("=");
    const name = eq < 0 ? e : e.slice(0, eq);
    if (!VAR_NAME.test(name)) throw new ShimError(`invalid environment variable: ${e}`);
    if (eq >= 0) env[name] = e.slice(eq + 1);
  }
  return env;
}

/** The argv ws runs for a tmux command: one word is a shell command line (run by default-shell),
 * several are argv (tmux's spawn.c). */
export async function paneArgv(ctx: Ctx, words: string[], env: Record<string, string> = {}): Promise<string[]> {
  return wrapCommand(await defaultShell(ctx), words, env);
}

/** The shell panes run: `set -g default-shell`, else $SHELL (what ws runs for a pane with no command). */
export const defaultShell = async (ctx: Ctx) => (await ctx.state.options())["default-shell"] || ctx.env.SHELL || "/bin/sh";

/** -c DIR, a format; default the caller's directory (a tmux command client's). */
export function startDir(ctx: Ctx, w: World, p: Parsed, pane: TPane, flag = "c"): string {
  const c = val(p, flag);
  return c !== undefined ? expand(c, variables({ pane, sock: ctx.sock, world: w })) : (ctx.cwd ?? process.cwd());
}

/** N or N% of `whole`. */
export function sizeArg(s: string, whole: number): number {
  const pct = s.endsWith("%");
  const n = Number(pct ? s.slice(0, -1) : s);
  if (!Number.isInteger(n) || n < 0) throw new ShimError(`size invalid: ${s}`);
  return pct ? Math.floor((whole * n) / 100) : n;
}

/** -P: print the new pane (or window, session) in -F's format, else `fallback`. */
export async function printNew(ctx: Ctx, p: Parsed, paneId: number, fallback: string): Promise<void> {
  if (!has(p, "P")) return;
  const { world: w } = await world(ctx);
  const pane = w.panes.get(paneId);
  if (!pane) throw new ShimError(`can't find pane: %${paneId}`);
  ctx.out((await format(ctx, w, val(p, "F") ?? fallback, [{ pane }]))[0]!);
}
