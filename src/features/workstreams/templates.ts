// Workstream templates: TOML files under $XDG_CONFIG_HOME/ws/templates/NAME.toml, plus the two
// built in. A template lays out the workstream's tab with the layout tree layout_apply takes
// (src/model/tree.ts), and says where the repo is, which files to copy and what to run first.
// Placeholders ({name}, {branch}, …) are filled into single argv elements, never through a shell.
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { tomlProblem } from "../../toml-problem";
import { WsError } from "../../protocol/errors";
import { checkTree, type TreeNode } from "../../model/tree";
import { wsDir } from "../../xdg-dirs";
import { nvimListenArgv } from "../nvim/listen";

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
  /** argv arrays, or strings the user wrote as shell command lines (run with sh -c). */
  setup: (string | string[])[];
  layout: TreeNode;
}

/** The placeholders a template may use; a known one with no value becomes "". */
export const PLACEHOLDERS = ["name", "branch", "dir", "repo", "pr", "url", "context", "review_command"] as const;
export type Vars = Partial<Record<string, string>>;

/** The review agent's command line ({review_command}) unless WS_REVIEW_COMMAND says otherwise. */
export const DEFAULT_REVIEW_COMMAND = `claude 'Review this pull request. Its title, description, changed files and checks are in .ws/pr.md; the code is checked out here.'`;

const SETTINGS = ["repo", "workspace", "base", "copy", "setup", "layout"];
const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

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
# Panes: command (argv), cwd (relative to the worktree), label, env, keep.
# Placeholders: {name} {branch} {dir} {repo} {pr} {url} {context} {review_command}

[layout]
type = "pane"
`,
  review: `# The built-in "review" template (ws review): the review agent beside a shell.
# {review_command} is a command line (WS_REVIEW_COMMAND, default: claude with a prompt to review
# the PR described in .ws/pr.md), so it runs through sh -c.

workspace = "PR Review"

[layout]
type = "split"
direction = "right"
ratio = 0.6

[layout.first]
type = "pane"
label = "review"
command = ["sh", "-c", "{review_command}"]

[layout.second]
type = "pane"
label = "shell"
`,
};

export const BUILTINS = Object.keys(BUILTIN_TEXT);

export function templatesDir(env: Record<string, string | undefined> = process.env): string {
  return wsDir("config", env, "templates");
}

const fail = (message: string, code = "template_invalid") => new WsError(message, code, { command: "ws templates list" });

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
  return { name, file, text, repo: str("repo"), workspace: str("workspace"), base: str("base"), copy: copy as string[], setup: setup as Template["setup"], layout: layout as TreeNode };
}

/** Why a copy entry is refused: it must stay inside the repo. */
export function copyProblem(p: string): string | undefined {
  if (p === "" || p.startsWith("/")) return "must be a path relative to the repo";
  if (p.split("/").includes("..")) return "must not leave the repo (..)";
  if (p.includes("\0")) return "holds a NUL character";
  return undefined;
}

/** A template by name: the user's file first (it may shadow a built-in), else a built-in. */
export async function loadTemplate(name: string, env: Record<string, string | undefined> = process.env): Promise<Template> {
  if (!TEMPLATE_NAME.test(name)) throw fail(`invalid template name ${JSON.stringify(name)}: letters, digits, ".", "_" and "-"`, "template_not_found");
  const file = join(templatesDir(env), `${name}.toml`);
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw fail(`can't read ${file}: ${(e as Error).message}`);
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
    names = (await readdir(dir)).filter((f) => f.endsWith(".toml")).map((f) => f.slice(0, -5)).filter((n) => TEMPLATE_NAME.test(n)).sort();
  } catch {}
  const out: { name: string; file?: string }[] = names.map((n) => ({ name: n, file: join(dir, `${n}.toml`) }));
  for (const b of BUILTINS) if (!names.includes(b)) out.push({ name: b });
  return out;
}

// ---- filling in ---------------------------------------------------------------------------

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "fish", "ksh"]);

/** A value quoted for a POSIX shell: one word whatever it holds. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Fill `{placeholder}`s in `s`. Unknown ones stay as written (a `{}` in a script is not ours).
 * In a shell script (`quote`), values are quoted, except {review_command}, a command line itself. */
export function fill(s: string, vars: Vars, quote = false): string {
  return s.replace(/\{([a-z_]+)\}/g, (whole, key: string) => {
    if (!(PLACEHOLDERS as readonly string[]).includes(key) && vars[key] === undefined) return whole;
    const v = vars[key] ?? "";
    return quote && key !== "review_command" ? shellQuote(v) : v;
  });
}

/** An argv with its placeholders filled: a script after a shell's -c gets quoted values. */
export function fillArgv(argv: string[], vars: Vars): string[] {
  const shell = argv.length > 0 && SHELLS.has(argv[0]!.split("/").pop()!);
  return argv.map((a, i) => fill(a, vars, shell && i > 0 && argv[i - 1] === "-c"));
}

/** The template's tree for a workstream in `dir`: placeholders filled, cwds made absolute within
 * the worktree, and WS_WORKSTREAM set in every pane. With `socketDir` (the server's), a Neovim
 * pane gets a private --listen socket there, so `ws open` can drive it. */
export function instantiate(t: Template, vars: Vars, dir: string, workstream: string, socketDir?: string): TreeNode {
  const walk = (n: TreeNode): TreeNode => {
    if (n.type === "split") return { ...n, first: walk(n.first), second: walk(n.second) };
    const leaf: TreeNode = { type: "pane", cwd: resolve(dir, fill(n.cwd ?? ".", vars)), env: { ...Object.fromEntries(Object.entries(n.env ?? {}).map(([k, v]) => [k, fill(v, vars)])), WS_WORKSTREAM: workstream } };
    if (n.command) leaf.command = socketDir !== undefined ? nvimListenArgv(fillArgv(n.command, vars), socketDir) : fillArgv(n.command, vars);
    if (n.label !== undefined) leaf.label = fill(n.label, vars);
    if (n.keep) leaf.keep = true;
    return leaf;
  };
  const tree = walk(t.layout);
  const problem = checkTree(tree);
  if (problem) throw fail(`template ${t.name}, once filled in: ${problem.replace(/`root/g, "`layout")}`);
  return tree;
}

/** The setup commands as argv: a string is the user's command line, run with sh -c, its
 * placeholders quoted. */
export function setupCommands(t: Template, vars: Vars): string[][] {
  return t.setup.map((s) => (typeof s === "string" ? ["sh", "-c", fill(s, vars, true)] : fillArgv(s, vars)));
}
