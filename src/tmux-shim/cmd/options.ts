// The option, environment, hook, key-binding and config-file commands (tmux's cmd-set-option.c,
// cmd-show-options.c, cmd-set-environment.c, cmd-bind-key.c, cmd-source-file.c, …): each exports
// its entry; cmd/index.ts puts them in tmux's table. Options are kept by the daemon (state.ts is its client); the rest is
// accepted with nothing to do (ws has no key table, hooks or config files of tmux's).
import { call, ShimError } from "../world";
import { has, val } from "../getopt";
import { resolvePane } from "../target";
import { defaultShell, entry, nothing, world, type Run } from "./helpers";
import { ESC_TIMEOUT_MS, PANE_TERM } from "../../protocol/terminal-defaults";

/** tmux 3.3's defaults for the options tools ask about; where ws has the setting itself, its value
 * (the TERM panes get, the time a lone ESC waits). */
const OPTION_DEFAULTS: Record<string, string> = {
  "aggressive-resize": "off", "allow-passthrough": "off", "allow-rename": "off", "automatic-rename": "on", "base-index": "0", "default-shell": "/bin/sh",
  "default-terminal": PANE_TERM, "escape-time": String(ESC_TIMEOUT_MS), "exit-empty": "on", "extended-keys": "off", "focus-events": "off", "history-limit": "2000",
  "main-pane-height": "24", "main-pane-width": "80", "mode-keys": "emacs", "monitor-activity": "off", mouse: "off", "pane-base-index": "0",
  "pane-border-format": '#{?pane_active,#[reverse],}#{pane_index}#[default] "#{pane_title}"', "pane-border-status": "off", prefix: "C-b", "remain-on-exit": "off",
  "renumber-windows": "off", "set-clipboard": "external", "set-titles": "off", status: "on", "status-keys": "emacs", "status-position": "bottom",
  "synchronize-panes": "off", "terminal-overrides": "", "window-size": "latest",
};

const isKnownOption = (name: string) => name.startsWith("@") || name in OPTION_DEFAULTS || /^(pane|window|status|message|mode|display|clock|copy|word|visual|bell|activity|silence|lock|destroy|detach|key|repeat|set|update|user|wrap|alternate|command|cursor|editor|buffer|backspace|default|fill|popup|menu|other|prompt|scroll|monitor|automatic|allow|remain|synchronize|main|aggressive|xterm|history|terminal|focus|escape|exit|extended|base|renumber|mouse|prefix|status)/.test(name);

const setOption: Run = async (ctx, p, command) => {
  const name = p.args[0];
  if (name === undefined) throw new ShimError("invalid option: ");
  if (!isKnownOption(name)) {
    if (has(p, "q")) return;
    throw new ShimError(`invalid option: ${name}`);
  }
  if (has(p, "u") || has(p, "U")) return ctx.state.setOption(name, "unset");
  // An on/off option given no value flips; -a adds to the value, -o sets only an unset one: each
  // in one step on the daemon, so calls at the same time lose nothing.
  const flips = p.args[1] === undefined && (OPTION_DEFAULTS[name] === "off" || OPTION_DEFAULTS[name] === "on");
  const given = p.args[1] ?? "";
  const mode = flips ? "toggle" : has(p, "o") ? "if_unset" : has(p, "a") ? "append" : "set";
  const current = flips || has(p, "a") || has(p, "o") ? (await ctx.state.options())[name] : undefined;
  if (has(p, "o") && current !== undefined) return;
  // The value a pane's title or border gets (what is kept is worked out on the daemon).
  const value = flips ? ((current ?? OPTION_DEFAULTS[name]) === "on" ? "off" : "on") : has(p, "a") ? (current ?? "") + given : given;
  // A pane's or window's own option (-p, -w, setw without -g) is accepted and not kept: kept, it
  // would apply to every pane the shim starts after (remain-on-exit would keep them all).
  const local = (has(p, "p") || has(p, "w") || command === "set-window-option") && !has(p, "g");
  // A pane's title is its ws name.
  if (name === "@title" || name === "pane-title") {
    const { world: w, here } = await world(ctx);
    await call(ctx.sock, "pane_rename", { pane: resolvePane(w, val(p, "t"), here).id, name: value });
  }
  if (name === "pane-border-format" || name === "pane-border-status") await paneBorder(ctx, p, name, value, local);
  ctx.ui?.option(name, value, local);
  if (!local || name.startsWith("@")) await ctx.state.setOption(name, mode, flips ? OPTION_DEFAULTS[name] : given);
};

const listKeys: Run = async (ctx, _p, command) => {
  if (!ctx.ui) throw new ShimError(`${command}: not supported by ws's tmux shim (ws keys --list lists ws's keys)`);
  for (const line of ctx.ui.keys()) ctx.out(line);
};

/** At the person's prompt, each file's commands run; from a program, accepted with nothing done
 * (a plugin's `source-file ~/.tmux.conf` must not rebind or restyle ws). */
const sourceFile: Run = async (ctx, p) => {
  if (!ctx.ui) return;
  for (const path of p.args) await ctx.ui.source(path, has(p, "q"));
};

/** tmux's pane border options, drawn by ws in its label rows (pane_border): a pane's own format
 * (-p), a window's format or status (-w, or -t naming a window), or every window's (-g). */
async function paneBorder(ctx: Parameters<Run>[0], p: Parameters<Run>[1], name: string, value: string, local: boolean): Promise<void> {
  if (name === "pane-border-status" && !["top", "bottom", "off"].includes(value)) throw new ShimError(`unknown value: ${value}`);
  const { world: w, here } = await world(ctx);
  const field = name === "pane-border-status" ? "status" : "tab_format";
  if (name === "pane-border-format" && has(p, "p") && !has(p, "g")) {
    await call(ctx.sock, "pane_border", { pane: resolvePane(w, val(p, "t"), here).id, format: value });
    return;
  }
  const panes = local || !has(p, "g") ? [resolvePane(w, val(p, "t"), here)] : w.sessions.flatMap((s) => s.windows.map((win) => win.panes[0])).filter((x) => x !== undefined);
  for (const pane of panes) await call(ctx.sock, "pane_border", { pane: pane.id, [field]: value });
}

const showOptions: Run = async (ctx, p) => {
  const stored = await ctx.state.options();
  // default-shell: the shell panes really run, as tmux's default is $SHELL.
  const all: Record<string, string> = { ...OPTION_DEFAULTS, "default-shell": await defaultShell(ctx), ...stored };
  const name = p.args[0];
  if (name === undefined) {
    for (const [k, v] of Object.entries(all).sort(([a], [b]) => a.localeCompare(b))) ctx.out(has(p, "v") ? v : `${k} ${quoteOption(v)}`);
    return;
  }
  const value = all[name];
  if (value === undefined) {
    if (has(p, "q") || (name.startsWith("@") && has(p, "v"))) return;
    throw new ShimError(`invalid option: ${name}`);
  }
  ctx.out(has(p, "v") ? value : `${name} ${quoteOption(value)}`);
};

const quoteOption = (v: string) => (v === "" || /[\s"#;{}]/.test(v) ? `"${v.replace(/(["\\$])/g, "\\$1")}"` : v);

// ---- the entries ---------------------------------------------------------------------------

export const bindKeyEntry = entry("bind-key", "bind", "nrN:T:", nothing);
export const listCommandsEntry = entry("list-commands", "lscm");
export const listKeysEntry = entry("list-keys", "lsk", "1aNP:T:", listKeys);
export const setEnvironmentEntry = entry("set-environment", "setenv", "Fhgrt:u", nothing);
export const setHookEntry = entry("set-hook", undefined, "agpRt:uw", nothing);
export const setOptionEntry = entry("set-option", "set", "aFgopqst:uUw", setOption);
export const setWindowOptionEntry = entry("set-window-option", "setw", "aFgoqt:u", setOption);
export const showEnvironmentEntry = entry("show-environment", "showenv");
export const showHooksEntry = entry("show-hooks", undefined);
export const showOptionsEntry = entry("show-options", "show", "AgHpqst:vw", showOptions);
export const showWindowOptionsEntry = entry("show-window-options", "showw", "gvt:", showOptions);
export const sourceFileEntry = entry("source-file", "source", "Fnqv", sourceFile);
export const unbindKeyEntry = entry("unbind-key", "unbind", "anqT:", nothing);
