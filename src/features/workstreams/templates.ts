// Workstream templates: TOML files under $XDG_CONFIG_HOME/ws/templates/NAME.toml, plus the two
// built in. A template lays out the workstream's tab with the layout tree layout_apply takes
// (src/model/tree.ts), and says where the repo is, which files to copy and what to run first.
// Placeholders ({name}, {branch}, …) fill only what stays data: cwd, a label, the workspace's name,
// a data variable's env value, or a whole argv element the template marks as data ({data:branch});
// every value is also in the pane's and the setup's environment (WS_BRANCH, …), which is where a
// script or any other program reads it.
import { readTextFileAsync } from "../../safe-file";
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { tomlProblem } from "../../toml-problem";
import { WsError, type ErrorCode } from "../../protocol/errors";
import { checkTree, type TreeNode } from "../../model/tree";
import { MAX_POLICY_VALUE } from "./workstream";
import { wsDir } from "../../xdg-dirs";
import { nvimListenArgv } from "../nvim/listen";
import { pathNameProblem } from "../../protocol/names";
import { type CheckpointPolicy, DEFAULT_POLICY } from "./checkpoints";

export interface Template {
  name: string;
  /** The file it came from; undefined for a built-in. */
  file?: string;
  /** The TOML text, for `ws templates show`. */
  text: string;
  repo?: string;
  workspace?: string;
  base?: string;
  copy: string[];
  /** argv arrays, or strings the user wrote as shell command lines (run with sh -c; no placeholders). */
  setup: (string | string[])[];
  layout: TreeNode;
  /** How many checkpoints to keep and for how long ([checkpoints]; default DEFAULT_POLICY). */
  checkpoints?: CheckpointPolicy;
  /** ws fan: the command that judges a candidate once its agent is done (tests), run in its
   * worktree; an argv list, or a command line run with sh -c (no placeholders). */
  check?: string | string[];
  /** ws fan: how long to wait for the agent to report ready before typing the prompt anyway (ms). */
  startup_ms?: number;
}

/** How long ws fan waits for an agent to report before typing its prompt anyway. */
export const DEFAULT_STARTUP_MS = 10_000;

/** The placeholders a template may use; one with no value becomes "". Each is also the
 * environment variable WS_<NAME> in every pane and setup command (envName). */
export const PLACEHOLDERS = ["name", "branch", "dir", "repo", "pr", "url", "context", "review_command"] as const;
export type Vars = Partial<Record<string, string>>;

/** The environment variable that carries a placeholder's value: {branch} is WS_BRANCH. */
export const envName = (placeholder: string) => `WS_${placeholder.toUpperCase()}`;

const isPlaceholder = (key: string) => (PLACEHOLDERS as readonly string[]).includes(key);

/** The review agent's command line ({review_command}) unless WS_REVIEW_COMMAND says otherwise. */
export const DEFAULT_REVIEW_COMMAND = `claude "Review this pull request. Its title, description, changed files and checks are in $WS_CONTEXT; the code is checked out here."`;

const SETTINGS = ["repo", "workspace", "base", "copy", "setup", "layout", "checkpoints", "check", "startup_ms"];
const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const templateNameProblem = (name: string) => pathNameProblem(name) ?? (TEMPLATE_NAME.test(name) ? undefined : 'holds characters other than letters, digits, ".", "_" and "-"');

const BUILTIN_TEXT: Record<string, string> = {
  default: `# The built-in "default" template: one shell in the worktree.
# Copy it to ~/.config/ws/templates/NAME.toml and edit. Every setting is optional.
#
# repo = "~/code/app"            # the main clone (default: the project's, else where \`ws new\` runs)
# workspace = "{repo}"           # the tab's workspace, made if missing (default: the repo's directory name)
# base = "main"                  # where a new branch starts (default: the remote's default branch)
# copy = [".env"]                # files copied from the main clone (.worktreeinclude in the repo adds to them)
# setup = [["bun", "install"]]   # run once in the new worktree before the panes start
#
# The layout is the tree \`ws layout apply\` takes: a pane, or a split of two nodes.
# Panes: command (argv), cwd (relative to the worktree), label, env, keep; agent = true for a pane
# that runs an agent (its grants: self; ws new --prompt types into it), or grants = "report"|"self"|"workspace"|"control";
# resume = ["claude", "--resume", "{session}"] (how a restore resumes its agent) or false; box = true to run
# the pane's program in a sandbox (docs/security.md#boxes; network = false takes its network,
# box_write = ["~/.cache/x"] lets it write more).
# Placeholders: {name} {branch} {dir} {repo} {pr} {url} {context} {review_command}. One fills only
# cwd, label, workspace, the env value of a WS_* variable (or BRANCH, PR, PR_URL), or a whole argv
# element marked as data where the program reads that position as data:
# ["git", "log", "--end-of-options", "{data:branch}"]. Anywhere else (["bash", "-lc", "..."], a
# setup string, an option) read the environment: $WS_NAME, $WS_BRANCH, $WS_DIR, $WS_REPO, $WS_PR, …
# are set in every pane and setup command.

[layout]
type = "pane"
`,
  review: `# The built-in "review" template (ws review): the review agent beside a shell.
# $WS_REVIEW_COMMAND is a command line (your WS_REVIEW_COMMAND, default: claude with a prompt to
# review the PR described in $WS_CONTEXT), so sh runs it; it is read from the environment, as every
# placeholder's value is inside a script.

workspace = "PR Review"

[layout]
type = "split"
direction = "right"
ratio = 0.6

[layout.first]
type = "pane"
label = "review"
agent = true
command = ["sh", "-c", 'eval "$WS_REVIEW_COMMAND"']
# The agent runs in a box (docs/security.md#boxes): the checkout read-write, your secrets hidden.
box = true

[layout.second]
type = "pane"
label = "shell"
`,
};

export const BUILTINS = Object.keys(BUILTIN_TEXT);

export function templatesDir(env: Record<string, string | undefined> = process.env): string {
  return wsDir("config", env, "templates");
}

const fail = (message: string, code: ErrorCode = "template_invalid") => new WsError(message, code, { command: "ws templates list" });

/** The line of `text` that sets the key at `path` (["layout", "first", "command"]): under its
 * table's [header] when there is one, else the first line naming the key; 0 when not found. */
export function lineOfPath(text: string, path: string[]): number {
  const lines = text.split("\n");
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const key = path[path.length - 1]!;
  const keyRe = new RegExp(`^\\s*(?:"${esc(key)}"|'${esc(key)}'|${esc(key)})\\s*=`);
  for (let depth = path.length - 1; depth >= 1; depth--) {
    const header = new RegExp(`^\\s*\\[\\s*${path.slice(0, depth).map(esc).join("\\s*\\.\\s*")}\\s*\\]\\s*(#.*)?$`);
    const start = lines.findIndex((l) => header.test(l));
    if (start < 0) continue;
    if (depth === path.length - 1) {
      for (let i = start + 1; i < lines.length && !/^\s*\[/.test(lines[i]!); i++) if (keyRe.test(lines[i]!)) return i + 1;
    }
    return start + 1;
  }
  const top = lines.findIndex((l) => keyRe.test(l));
  if (top >= 0) return top + 1;
  const any = lines.findIndex((l) => l.includes(key));
  return any + 1;
}

/** Parse a template's text; a mistake is an error naming the file and line. */
export function parseTemplate(name: string, text: string, file?: string): Template {
  const where = (path: string[]) => `${file ?? `built-in template ${name}`}:${lineOfPath(text, path)}`;
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    throw fail(tomlProblem(e, file ?? name));
  }
  for (const k of Object.keys(doc)) if (!SETTINGS.includes(k)) throw fail(`${where([k])}: unknown setting "${k}" (expected ${SETTINGS.join(", ")})`);
  const str = (k: string): string | undefined => {
    const v = doc[k];
    if (v !== undefined && typeof v !== "string") throw fail(`${where([k])}: ${k} must be a string`);
    return v as string | undefined;
  };
  const copy = doc.copy ?? [];
  if (!Array.isArray(copy) || !copy.every((c) => typeof c === "string")) throw fail(`${where(["copy"])}: copy must be a list of paths, e.g. [".env"]`);
  const badCopy = (copy as string[]).find((c) => copyProblem(c));
  if (badCopy !== undefined) throw fail(`${where(["copy"])}: copy entry ${JSON.stringify(badCopy)} ${copyProblem(badCopy)}`);
  const setup = doc.setup ?? [];
  const setupOk = Array.isArray(setup) && setup.every((s) => (typeof s === "string" && s.trim() !== "") || (Array.isArray(s) && s.length > 0 && s.every((x) => typeof x === "string")));
  if (!setupOk) throw fail(`${where(["setup"])}: setup must be a list of commands, each an argv list like ["bun", "install"] or a command line string`);
  const layout = doc.layout ?? { type: "pane" };
  const problem = checkTree(layout);
  if (problem) {
    // checkTree names places as root.first.command; in the file the tree is [layout].
    const m = /`(root[^`]*)`/.exec(problem);
    const path = m ? m[1]!.replace(/^root/, "layout").split(".") : ["layout"];
    throw fail(`${where(path)}: ${problem.replace(/`root/g, "`layout")}`);
  }
  for (const s of setup as Template["setup"]) {
    const bad = typeof s === "string" ? scriptTextProblem(s, "sh -c, a setup string") : argvProblem(s);
    if (bad) throw fail(`${where(["setup"])}: setup ${JSON.stringify(s)}: ${bad}`);
  }
  const walk = (n: TreeNode, path: string[]): void => {
    if (n.type === "split") return walk(n.first, [...path, "first"]), walk(n.second, [...path, "second"]);
    const bad = n.command && argvProblem(n.command);
    if (bad) throw fail(`${where([...path, "command"])}: command ${JSON.stringify(n.command)}: ${bad}`);
    for (const [k, v] of Object.entries(n.env ?? {})) {
      const problem = envProblem(k, v);
      if (problem) throw fail(`${where([...path, "env"])}: env ${k}: ${problem}`);
    }
  };
  walk(layout as TreeNode, ["layout"]);
  const check = doc.check;
  if (check !== undefined) {
    const okShape = (typeof check === "string" && check.trim() !== "") || (Array.isArray(check) && check.length > 0 && check.every((x) => typeof x === "string"));
    if (!okShape) throw fail(`${where(["check"])}: check must be a command, an argv list like ["bun", "test"] or a command line string`);
    const bad = typeof check === "string" ? scriptTextProblem(check, "sh -c, a check string") : argvProblem(check as string[]);
    if (bad) throw fail(`${where(["check"])}: check ${JSON.stringify(check)}: ${bad}`);
  }
  const startup = doc.startup_ms;
  if (startup !== undefined && !(typeof startup === "number" && Number.isSafeInteger(startup) && startup >= 0 && startup <= 600_000))
    throw fail(`${where(["startup_ms"])}: startup_ms must be a whole number of milliseconds from 0 to 600000`);
  const checkpoints = checkpointPolicy(doc.checkpoints, (k) => fail(`${where(["checkpoints", ...k])}: ${k.length ? `checkpoints.${k[0]} must be a whole number from 1 to 100000` : "checkpoints must be a table: keep = 50, max_age_days = 14"}`));
  return { name, file, text, repo: str("repo"), workspace: str("workspace"), base: str("base"), copy: copy as string[], setup: setup as Template["setup"], layout: layout as TreeNode, ...(checkpoints ? { checkpoints } : {}), ...(check !== undefined ? { check: check as string | string[] } : {}), ...(startup !== undefined ? { startup_ms: startup as number } : {}) };
}

/** The [checkpoints] table: keep (a count) and max_age_days, each defaulting to DEFAULT_POLICY's. */
function checkpointPolicy(v: unknown, bad: (key: string[]) => Error): CheckpointPolicy | undefined {
  if (v === undefined) return undefined;
  if (!v || typeof v !== "object" || Array.isArray(v)) throw bad([]);
  const t = v as Record<string, unknown>;
  for (const k of Object.keys(t)) if (k !== "keep" && k !== "max_age_days") throw bad([k]);
  const num = (k: "keep" | "max_age_days"): number => {
    const x = t[k] ?? DEFAULT_POLICY[k];
    if (typeof x !== "number" || !Number.isSafeInteger(x) || x < 1 || x > MAX_POLICY_VALUE) throw bad([k]);
    return x;
  };
  return { keep: num("keep"), max_age_days: num("max_age_days") };
}

/** Why a copy entry is refused: it must stay inside the repo. */
export function copyProblem(p: string): string | undefined {
  if (p === "" || p.startsWith("/")) return "must be a path relative to the repo";
  if (p.split("/").includes("..")) return "must not leave the repo (..)";
  if (p.includes("\0")) return "holds a NUL character";
  return undefined;
}

/** A template file is a few lines of TOML. */
const MAX_TEMPLATE_BYTES = 1024 * 1024;

/** A template by name: the user's file first (it may shadow a built-in), else a built-in. */
export async function loadTemplate(name: string, env: Record<string, string | undefined> = process.env): Promise<Template> {
  const bad = templateNameProblem(name);
  if (bad) throw fail(`invalid template name ${JSON.stringify(name)}: it ${bad}`, "template_not_found");
  const file = join(templatesDir(env), `${name}.toml`);
  let text: string | undefined;
  try {
    text = await readTextFileAsync(file, MAX_TEMPLATE_BYTES); // a FIFO there is refused, not waited on
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw fail((e as Error).message); // names the file
  }
  if (text !== undefined) return parseTemplate(name, text, file);
  const builtin = BUILTIN_TEXT[name];
  if (builtin !== undefined) return parseTemplate(name, builtin);
  const have = (await listTemplates(env)).map((t) => t.name);
  throw new WsError(`no template "${name}" (have: ${have.join(", ")}); add ${file}`, "template_not_found", { param: "template", available: have, command: "ws templates list" });
}

/** Every template: the user's files, then the built-ins they don't shadow. */
export async function listTemplates(env: Record<string, string | undefined> = process.env): Promise<{ name: string; file?: string }[]> {
  const dir = templatesDir(env);
  let names: string[] = [];
  try {
    names = (await readdir(dir)).filter((f) => f.endsWith(".toml")).map((f) => f.slice(0, -5)).filter((n) => !templateNameProblem(n)).sort();
  } catch {}
  const out: { name: string; file?: string }[] = names.map((n) => ({ name: n, file: join(dir, `${n}.toml`) }));
  for (const b of BUILTINS) if (!names.includes(b)) out.push({ name: b });
  return out;
}

// ---- placeholders: where they may go, and filling in ---------------------------------------
// An allow-list, not a list of interpreters: which programs read an argument or a variable as code
// can't be known (perl -M, PERL5OPT, GIT_SSH_COMMAND, …), so a value goes only where it stays data.

/** A placeholder, `{branch}`, or one the template marks as a data argument, `{data:branch}`. */
const PLACEHOLDER = /\{(data:)?([a-z_]+)\}/g;
/** An argv element the template marks as data: the whole element, one placeholder. */
const DATA_ELEMENT = /^\{data:([a-z_]+)\}$/;
/** Variables besides WS_* whose value a placeholder may be: names programs read as plain data. */
export const DATA_VARIABLES = ["BRANCH", "PR", "PR_URL"] as const;

/** Whether a template's env value for `name` may hold a placeholder: one of DATA_VARIABLES, or any
 * WS_ name but those ws runs as a command (WS_SSH_COMMAND, WS_REVIEW_COMMAND). */
export function placeholderVariable(name: string): boolean {
  return (DATA_VARIABLES as readonly string[]).includes(name) || (name.startsWith("WS_") && !name.endsWith("_COMMAND"));
}

/** The placeholders `s` uses (known ones only: `{}` in a script is not ours). */
function placeholdersIn(s: string): string[] {
  return [...s.matchAll(PLACEHOLDER)].map((m) => m[2]!).filter(isPlaceholder);
}

/** The end of every refusal: where the value is instead. */
const readInstead = (key: string) => {
  const v = envName(key);
  return `Read it from the environment instead: ${v} is set in every pane and setup command ("$${v}" in a shell, os.environ["${v}"] in Python, process.env.${v} in Node)`;
};

/** Why a command line string (run with sh -c) is refused: any placeholder in it would be code. */
function scriptTextProblem(text: string, how: string): string | undefined {
  const key = placeholdersIn(text)[0];
  return key === undefined ? undefined : `{${key}} is in a command line string (${how}), where its value would run as code. ${readInstead(key)}`;
}

/** Why an argv of a template puts a placeholder anywhere but a whole element it marks as data. */
export function argvProblem(argv: readonly string[]): string | undefined {
  for (const [i, a] of argv.entries()) {
    const keys = placeholdersIn(a);
    if (!keys.length) continue;
    if (i === 0) return `{${keys[0]}} names the program to run. ${readInstead(keys[0]!)}`;
    const m = DATA_ELEMENT.exec(a);
    if (m && isPlaceholder(m[1]!)) continue;
    return `{${keys[0]}} in ${JSON.stringify(a)}: a placeholder fills an argv element only as the whole element, marked as data ("{data:${keys[0]}}"), where the program reads that position as data (a program may read any other text, or an option, as code). ${readInstead(keys[0]!)}`;
  }
  return undefined;
}

/** Why an env value holding a placeholder is refused: only data variables take one. */
function envProblem(name: string, value: string): string | undefined {
  const key = placeholdersIn(value)[0];
  if (key === undefined || placeholderVariable(name)) return undefined;
  return `{${key}} may fill only the value of WS_* (not *_COMMAND) or ${DATA_VARIABLES.join(", ")}: a program may run ${name}'s value as code. ${readInstead(key)}`;
}

/** Fill `{placeholder}`s in `s`. Unknown ones stay as written (a `{}` in a script is not ours). */
export function fill(s: string, vars: Vars): string {
  return s.replace(PLACEHOLDER, (whole, _data: string | undefined, key: string) => (isPlaceholder(key) ? (vars[key] ?? "") : whole));
}

/** An argv with its placeholders filled: each value stays inside its element. */
export function fillArgv(argv: string[], vars: Vars): string[] {
  return argv.map((a) => fill(a, vars));
}

/** Every placeholder's value as the environment variable a script reads (WS_BRANCH, …); "" for
 * none. A value the environment can't carry (a NUL) is left empty. */
export function placeholderEnv(vars: Vars): Record<string, string> {
  return Object.fromEntries(PLACEHOLDERS.map((k) => [envName(k), (vars[k] ?? "").includes("\0") ? "" : (vars[k] ?? "")]));
}

/** The template's tree for a workstream in `dir`: placeholders filled, cwds made absolute within
 * the worktree, and WS_WORKSTREAM set in every pane. With `socketDir` (the server's), a Neovim
 * pane gets a private --listen socket there, so `ws open` can drive it. */
export function instantiate(t: Template, given: Vars, dir: string, workstream: string, socketDir?: string): TreeNode {
  const vars: Vars = { name: workstream, dir, ...given };
  const walk = (n: TreeNode): TreeNode => {
    if (n.type === "split") return { ...n, first: walk(n.first), second: walk(n.second) };
    const leaf: TreeNode = { type: "pane", cwd: resolve(dir, fill(n.cwd ?? ".", vars)), env: { ...Object.fromEntries(Object.entries(n.env ?? {}).map(([k, v]) => [k, fill(v, vars)])), ...placeholderEnv(vars), WS_WORKSTREAM: workstream } };
    if (n.command) leaf.command = socketDir !== undefined ? nvimListenArgv(fillArgv(n.command, vars), socketDir) : fillArgv(n.command, vars);
    if (n.label !== undefined) leaf.label = fill(n.label, vars);
    if (n.keep) leaf.keep = true;
    if (n.box !== undefined) leaf.box = n.box;
    if (n.network !== undefined) leaf.network = n.network;
    if (n.box_write !== undefined) leaf.box_write = [...n.box_write];
    // Which pane runs the agent (its grants, ws new --prompt's target) and how a restore resumes it.
    if (n.agent) leaf.agent = true;
    if (n.grants !== undefined) leaf.grants = n.grants;
    if (n.resume !== undefined) leaf.resume = n.resume === false ? false : [...n.resume];
    return leaf;
  };
  const tree = walk(t.layout);
  const problem = checkTree(tree);
  if (problem) throw fail(`template ${t.name}, once filled in: ${problem.replace(/`root/g, "`layout")}`);
  return tree;
}

/** The check command (ws fan) as argv, or undefined: a string is the user's command line (sh -c). */
export function checkCommand(t: Template, vars: Vars): string[] | undefined {
  if (t.check === undefined) return undefined;
  return typeof t.check === "string" ? ["sh", "-c", t.check] : fillArgv(t.check, vars);
}

/** The setup commands as argv: a string is the user's command line, run with sh -c as written
 * (loading refused placeholders in it; it reads $WS_BRANCH, …). */
export function setupCommands(t: Template, vars: Vars): string[][] {
  return t.setup.map((s) => (typeof s === "string" ? ["sh", "-c", s] : fillArgv(s, vars)));
}
