// `ws hooks install|uninstall claude|codex`: add ws's hooks to an agent CLI's settings file, and take
// exactly those away again. The user's own hooks and every other key stay; a backup sits beside the
// file; a file installed and then uninstalled (untouched in between) comes back byte for byte, with
// its mode, its owner and (for a symlink) its link.

import { shellWord } from "../../shell-quote";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { editSettingsFile, readJson, SettingsError, writeJsonLike } from "./settings-file";

export { MAX_SETTINGS_BYTES, lineDiff, resolveSettings } from "./settings-file";

export type HookTarget = "claude" | "codex";
export const TARGETS: HookTarget[] = ["claude", "codex"];

/** Claude Code events ws listens to; each gets one matcher group running `ws report EVENT`. */
export const CLAUDE_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Notification",
  "Stop",
  "SubagentStop",
  "SessionEnd",
] as const;
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse"]);
/** The approvals inbox's hook (cli/approval-hook.ts): one more group, with a time limit in
 * seconds above the hook's own default wait (300 s), so the hook gives up before Claude kills it. */
export const PERMISSION_EVENT = "PermissionRequest";
export const PERMISSION_HOOK_TIMEOUT_S = 330;

export const HooksError = SettingsError;

export function settingsPath(target: HookTarget, env = process.env): string {
  return target === "claude"
    ? join(env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude"), "settings.json")
    : join(env.CODEX_HOME || join(homedir(), ".codex"), "config.toml");
}

/** How hooks should start this ws: the compiled binary, or bun running the source. */
export function selfCommand(): string[] {
  const compiled = basename(process.execPath) !== "bun" && basename(process.execPath) !== "bun.exe";
  return compiled ? [process.execPath] : [process.execPath, Bun.main];
}

export const claudeCommand = (ws: string[], event: string) =>
  [...ws, "report", event, "--agent", "claude"].map(shellWord).join(" ");

export const claudeApprovalCommand = (ws: string[]) => [...ws, "approval-hook", "--agent", "claude"].map(shellWord).join(" ");

// Ours whatever path ws had when it was installed, so uninstall still works after ws moves.
const OURS_CLAUDE = /(^|[\s/'])(ws|main\.ts)'?\s+(report\s+\S+|approval-hook)\s+--agent\s+claude$/;
const isOurClaudeHook = (h: unknown) =>
  !!h && typeof h === "object" && typeof (h as { command?: unknown }).command === "string" && OURS_CLAUDE.test((h as { command: string }).command);

// ---- Claude Code: ~/.claude/settings.json, hooks.EVENT = [{ matcher?, hooks: [{ type, command }] }]

/** One hook ws wants in a JSON hooks file: the event, its matcher (if any) and the handler. */
interface WantedHook {
  event: string;
  matcher?: string;
  hook: { type: "command"; command: string; [k: string]: unknown };
}

/**
 * Add `wanted` to a JSON hooks file (Claude Code's settings.json, Codex's hooks.json: the same
 * hooks.EVENT = [{ matcher?, hooks: [handler] }] shape). A handler `isOurs` already there is kept,
 * its command updated when ws moved; everything else stays as it was.
 */
function installJsonHooks(text: string | null, wanted: WantedHook[], isOurs: (h: unknown) => boolean): string {
  const settings = readJson(text);
  if (settings.hooks !== undefined && (typeof settings.hooks !== "object" || Array.isArray(settings.hooks))) {
    throw new HooksError('"hooks" in the settings file is not an object; nothing was changed');
  }
  const hooks = (settings.hooks ??= {});
  let changed = false;
  for (const w of wanted) {
    const groups = (hooks[w.event] ??= []);
    if (!Array.isArray(groups)) throw new HooksError(`hooks.${w.event} is not a list; nothing was changed`);
    const mine = groups.flatMap((g: { hooks?: unknown } | null) => (Array.isArray(g?.hooks) ? g.hooks : [])).find(isOurs);
    if (mine) {
      if (mine.command !== w.hook.command) [mine.command, changed] = [w.hook.command, true]; // ws moved
      continue;
    }
    groups.push({ ...(w.matcher !== undefined ? { matcher: w.matcher } : {}), hooks: [w.hook] });
    changed = true;
  }
  return changed ? writeJsonLike(settings, text) : (text ?? "");
}

/** Take every handler `isOurs` out of a JSON hooks file; a group left empty goes, and so does an empty hooks object. */
function uninstallJsonHooks(text: string, isOurs: (h: unknown) => boolean): string {
  const settings = readJson(text);
  const hooks = settings.hooks;
  if (!hooks || typeof hooks !== "object") return text;
  let changed = false;
  for (const [event, groups] of Object.entries<unknown>(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = [];
    for (const g of groups) {
      const list = Array.isArray(g?.hooks) ? g.hooks : undefined;
      const rest = list?.filter((h: unknown) => !isOurs(h));
      if (!list || rest!.length === list.length) kept.push(g);
      else if (rest!.length) kept.push({ ...g, hooks: rest });
    }
    if (kept.length === groups.length && kept.every((g, i) => g === groups[i])) continue;
    changed = true;
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!changed) return text;
  if (Object.keys(hooks).length === 0) delete settings.hooks;
  return writeJsonLike(settings, text);
}

export function installClaude(text: string | null, ws: string[]): string {
  const wanted: WantedHook[] = CLAUDE_EVENTS.map((event) => ({
    event,
    ...(TOOL_EVENTS.has(event) ? { matcher: "*" } : {}),
    hook: { type: "command" as const, command: claudeCommand(ws, event) },
  }));
  wanted.push({ event: PERMISSION_EVENT, matcher: "*", hook: { type: "command", command: claudeApprovalCommand(ws), timeout: PERMISSION_HOOK_TIMEOUT_S } });
  return installJsonHooks(text, wanted, isOurClaudeHook);
}

export const uninstallClaude = (text: string) => uninstallJsonHooks(text, isOurClaudeHook);

// ---- Codex: ~/.codex/hooks.json, the same shape (Codex 0.171 reads it beside config.toml; its
// PermissionRequest hook runs before Codex shows its own approval dialog, docs/agents.md).

/** The hook's time limit in Codex's hooks.json, in seconds: above the hook's own default wait for
 * Codex (60 s, cli/approval-hook.ts), so the hook gives up before Codex kills it. */
export const CODEX_PERMISSION_HOOK_TIMEOUT_S = 90;
/** What Codex shows on its hook row while ws waits. */
export const CODEX_STATUS_MESSAGE = "Waiting for an answer in ws (ws inbox, or the dashboard's Needs you)";

export const codexApprovalCommand = (ws: string[]) => [...ws, "approval-hook", "--agent", "codex"].map(shellWord).join(" ");
const OURS_CODEX = /(^|[\s/'])(ws|main\.ts)'?\s+approval-hook\s+--agent\s+codex$/;
const isOurCodexHook = (h: unknown) =>
  !!h && typeof h === "object" && typeof (h as { command?: unknown }).command === "string" && OURS_CODEX.test((h as { command: string }).command);

export function installCodexHooks(text: string | null, ws: string[]): string {
  return installJsonHooks(
    text,
    [{ event: PERMISSION_EVENT, matcher: "*", hook: { type: "command", command: codexApprovalCommand(ws), timeout: CODEX_PERMISSION_HOOK_TIMEOUT_S, statusMessage: CODEX_STATUS_MESSAGE } }],
    isOurCodexHook,
  );
}

export const uninstallCodexHooks = (text: string) => uninstallJsonHooks(text, isOurCodexHook);

// ---- Codex: ~/.codex/config.toml, top-level notify = ["prog", "arg", …] (the JSON is appended)

const tomlArray = (argv: string[]) => `[${argv.map((a) => JSON.stringify(a)).join(", ")}]`;
const isOurNotify = (argv: unknown): argv is string[] =>
  Array.isArray(argv) && argv.includes("report") && argv.join(" ").includes("report --agent codex");

/** The top-level `notify = …` key's text span, arrays over several lines included. */
function notifySpan(text: string): { start: number; end: number } | undefined {
  const header = /^\s*\[/m.exec(text)?.index ?? text.length; // top-level keys come before any table
  const m = /^[ \t]*notify[ \t]*=/m.exec(text.slice(0, header));
  if (!m) return undefined;
  let i = m.index + m[0].length;
  let depth = 0;
  let quote: string | undefined;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === "#" && depth === 0) break;
    else if (c === "\n" && depth === 0) break;
    if (depth === 0 && c === "]") {
      i++;
      break;
    }
  }
  const eol = text.indexOf("\n", i);
  return { start: m.index, end: eol === -1 ? text.length : eol + 1 };
}

function readToml(text: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    throw new HooksError(`config.toml does not parse (${(e as Error).message}); fix it first, nothing was changed`);
  }
}

export function installCodex(text: string | null, ws: string[]): string {
  const src = text ?? "";
  const existing = readToml(src).notify;
  if (existing !== undefined && !(Array.isArray(existing) && existing.every((a) => typeof a === "string"))) {
    throw new HooksError("notify in config.toml is not a list of strings; nothing was changed");
  }
  const ours = [...ws, "report", "--agent", "codex"];
  let chain: string[] = [];
  if (isOurNotify(existing)) chain = existing.includes("--") ? existing.slice(existing.indexOf("--") + 1) : [];
  else if (existing) chain = existing; // the user's own notify keeps running, behind ws
  const argv = chain.length ? [...ours, "--", ...chain] : ours;
  const line = `notify = ${tomlArray(argv)}\n`;
  const span = notifySpan(src);
  if (!span) return line + src;
  const replaced = src.slice(0, span.start) + line + src.slice(span.end);
  return isOurNotify(existing) && tomlArray(existing) === tomlArray(argv) ? src : replaced;
}

export function uninstallCodex(text: string): string {
  const existing = readToml(text).notify;
  const span = notifySpan(text);
  if (!span || !isOurNotify(existing)) return text;
  const chain = existing.includes("--") ? existing.slice(existing.indexOf("--") + 1) : [];
  const line = chain.length ? `notify = ${tomlArray(chain)}\n` : "";
  return text.slice(0, span.start) + line + text.slice(span.end);
}

export interface HooksOptions {
  action: "install" | "uninstall";
  target: HookTarget;
  dryRun?: boolean;
  /** The settings file; default the agent's own. */
  file?: string;
  /** How hooks start ws; default this executable. */
  ws?: string[];
}

/** One file a target's hooks live in, and how ws's part is added to and taken from it. */
interface HookFile {
  path: string;
  install: (text: string | null, ws: string[]) => string;
  uninstall: (text: string) => string;
}

/** The files ws changes for `target`: Claude Code's settings.json; Codex's config.toml (notify) and
 * the hooks.json beside it (the approvals hook). `file` names the first one. */
export function hookFiles(target: HookTarget, file?: string): HookFile[] {
  const first = file ?? settingsPath(target);
  if (target === "claude") return [{ path: first, install: installClaude, uninstall: uninstallClaude }];
  return [
    { path: first, install: installCodex, uninstall: uninstallCodex },
    { path: join(dirname(first), "hooks.json"), install: installCodexHooks, uninstall: uninstallCodexHooks },
  ];
}

/** Codex runs a hook it has not seen (or whose command changed) only once the person trusts it. */
const CODEX_TRUST_NOTE =
  "Codex runs the new PermissionRequest hook only once you trust it: Codex asks at its next start (\"Hooks need review\"), or open /hooks in Codex.";

/** Do it (or, with dryRun, show it). Returns what to print. */
export function runHooks(o: HooksOptions): string {
  const ws = o.ws ?? selfCommand();
  const out = hookFiles(o.target, o.file).map((f) =>
    editSettingsFile({ action: o.action, dryRun: o.dryRun, path: f.path, install: (t) => f.install(t, ws), uninstall: f.uninstall, backup: backupPath, words: HOOK_WORDS }),
  );
  const hooksJsonChanged = o.target === "codex" && o.action === "install" && !o.dryRun && !out[1]!.endsWith(HOOK_WORDS.already);
  return [...out, ...(hooksJsonChanged ? [CODEX_TRUST_NOTE] : [])].join("\n");
}


const HOOK_WORDS = { already: ": ws hooks already installed", none: ": no ws hooks found", installed: "installed ws hooks in", removed: "removed ws hooks from" };

export const backupPath = (path: string) => `${path}.ws-backup`;
