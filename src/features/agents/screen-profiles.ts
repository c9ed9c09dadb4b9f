// Agents without hooks: which program in a pane's foreground is which agent CLI, and what its
// screen looks like when it waits for input (idle), works, or asks permission. The built-in table
// below, plus $XDG_CONFIG_HOME/ws/agents.toml (a table there replaces the built-in of its name).
// Built-in patterns are ws's own, written not to backtrack, and run on the daemon's thread; a
// pattern from agents.toml is a user pattern, matched with a time budget (src/patterns).
import { parse as parseToml } from "smol-toml";
import { userPattern, type UserPattern } from "../../patterns/user-pattern";
import { readTextFile } from "../../safe-file";
import { tomlProblem } from "../../toml-problem";
import { wsDir } from "../../xdg-dirs";
import { parseKeyName } from "../../protocol/key-names";

/** A pattern over a pane's visible text: ws's own (a RegExp run here) or the user's (run budgeted). */
export type ScreenPattern = { re: RegExp } | { user: UserPattern };

export interface PromptProfile {
  /** On screen while the agent asks permission; the line it matches starts the prompt's text. */
  shows: ScreenPattern[];
  /** How many lines from that line are the prompt (its fingerprint and what the inbox shows). */
  lines: number;
  /** Keys that answer it (tmux's key names, as `ws pane keys` takes them). */
  allow: string[];
  deny: string[];
}

export interface AgentProfile {
  /** The agent's name, as `ws agent list` shows it. */
  name: string;
  /** Program names that are this agent: argv[0]'s file name (a trailing .exe, .js, .mjs, .cjs, .ts or .py
   * dropped), or an interpreter's script (node, bun, deno, python: the first word after its
   * options). */
  programs: string[];
  working: ScreenPattern[];
  idle: ScreenPattern[];
  prompt?: PromptProfile;
  /** Where it was defined: "built-in" or the file. */
  from: string;
}

/** Patterns in one list, prompt lines, keys: far above any real profile, and a bound on the work. */
export const MAX_PATTERNS = 16;
export const MAX_PROMPT_LINES = 24;
export const MAX_KEYS = 16;
export const MAX_PROFILES = 64;
/** The most of agents.toml ws reads. */
export const AGENTS_TOML_MAX = 256 * 1024;

const re = (source: string): ScreenPattern => ({ re: new RegExp(source, "m") });

/**
 * Read from the real CLIs: opencode 1.18.33 (npm opencode-ai, run in a ws pane: its idle, working
 * and permission screens), Gemini CLI 0.61.0 (npm @google/gemini-cli: the strings its bundle
 * draws). The others follow the texts their projects document and are kept deliberately narrow.
 */
export const BUILTIN_PROFILES: readonly AgentProfile[] = [
  {
    name: "opencode",
    programs: ["opencode"],
    // The status bar: "esc interrupt" (then "esc again to interrupt") while a turn runs; a failed
    // request shows its retry there instead.
    working: [re("esc (?:again to )?interrupt"), re("\\[retrying (?:in \\d+s )?attempt #\\d+\\]")],
    idle: [re("ctrl\\+p commands")],
    // "△ Permission required", what it wants, then "Allow once  Allow always  Reject": Enter takes
    // the selected choice (Allow once), Esc rejects.
    prompt: { shows: [re("Permission required")], lines: 6, allow: ["Enter"], deny: ["Escape"] },
    from: "built-in",
  },
  {
    name: "gemini",
    programs: ["gemini"],
    working: [re("esc to cancel")],
    idle: [re("Type your message")],
    // Its tool confirmation: a list whose first, selected choice is "Allow once"; Esc declines.
    prompt: { shows: [re("Allow execution of"), re("Apply this change\\?"), re("Do you want to proceed\\?")], lines: 8, allow: ["Enter"], deny: ["Escape"] },
    from: "built-in",
  },
  {
    name: "aider",
    programs: ["aider"],
    working: [re("Waiting for "), re("Thinking")],
    idle: [re("^(?:\\w+ )?> ?$")],
    // "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]:" and its kin.
    prompt: { shows: [re("\\(Y\\)es/\\(N\\)o")], lines: 1, allow: ["y", "Enter"], deny: ["n", "Enter"] },
    from: "built-in",
  },
  {
    name: "amp",
    programs: ["amp"],
    working: [re("Esc to cancel")],
    idle: [re("ctrl\\+[a-z] ")],
    from: "built-in",
  },
  { name: "goose", programs: ["goose"], working: [re("Ctrl\\+C to interrupt")], idle: [re("^\\( O\\)> ")], from: "built-in" },
  { name: "cursor-agent", programs: ["cursor-agent"], working: [re("ctrl\\+c to stop")], idle: [re("/ commands")], from: "built-in" },
];

const INTERPRETERS = new Set(["node", "nodejs", "bun", "deno", "python", "python3", "env"]);
const baseName = (p: string) => (p.split("/").pop() ?? p).replace(/\.(?:exe|js|mjs|cjs|ts|py)$/, "");

/** The names a foreground argv goes by: argv[0]'s, and an interpreter's script's (node's options
 * skipped; `deno run` too). */
export function programNamesOf(argv: readonly string[]): string[] {
  const names: string[] = [];
  let i = 0;
  for (let hops = 0; hops < 3 && i < argv.length; hops++) {
    const name = baseName(argv[i] ?? "");
    if (name) names.push(name);
    if (!INTERPRETERS.has(name.replace(/[\d.]+$/, "") || name)) break;
    i++;
    while (i < argv.length && (argv[i]!.startsWith("-") || argv[i] === "run" || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]!))) i++;
  }
  return names;
}

/** The profile of the agent `argv` runs, if any (the first whose programs name it). */
export function profileFor(profiles: readonly AgentProfile[], argv: readonly string[]): AgentProfile | undefined {
  const names = programNamesOf(argv);
  return profiles.find((p) => p.programs.some((n) => names.includes(n)));
}

export function agentsTomlPath(env: Record<string, string | undefined> = process.env): string {
  return wsDir("config", env, "agents.toml");
}

/** A key as `ws pane keys` names it: a tmux name or one character, with modifiers. */
function keyProblem(k: string): string | undefined {
  return parseKeyName(k) ? undefined : `"${k}" is not a key name (Enter, Escape, y, C-c, …)`;
}

const SETTINGS = ["programs", "working", "idle", "prompt"];
const PROMPT_SETTINGS = ["shows", "lines", "allow", "deny"];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * agents.toml's text as profiles, each a table named after its agent:
 *
 *     [opencode]
 *     programs = ["opencode"]
 *     working = ["esc interrupt"]
 *     idle = ["ctrl\\+p commands"]
 *     prompt = { shows = ["Permission required"], lines = 6, allow = ["Enter"], deny = ["Escape"] }
 *
 * A table with a mistake is left out with a warning naming it; the rest are read.
 */
export function parseAgentsToml(text: string, file = "agents.toml"): { profiles: AgentProfile[]; warnings: string[] } {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    return { profiles: [], warnings: [tomlProblem(e, file)] };
  }
  const profiles: AgentProfile[] = [];
  const warnings: string[] = [];
  for (const [name, v] of Object.entries(doc)) {
    if (profiles.length >= MAX_PROFILES) {
      warnings.push(`${file}: more than ${MAX_PROFILES} agents; the rest are left out`);
      break;
    }
    try {
      profiles.push(parseProfile(name, v, file));
    } catch (e) {
      warnings.push(`${file}: [${name}]: ${(e as Error).message}; this agent is left out`);
    }
  }
  return { profiles, warnings };
}

function parseProfile(name: string, v: unknown, file: string): AgentProfile {
  if (!NAME.test(name)) throw new Error("an agent's name is letters, digits, '.', '_' and '-'");
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("must be a table");
  const t = v as Record<string, unknown>;
  const unknown = Object.keys(t).find((k) => !SETTINGS.includes(k));
  if (unknown) throw new Error(`unknown setting "${unknown}" (expected ${SETTINGS.join(", ")})`);
  const strings = (k: string, o: Record<string, unknown>, max: number): string[] => {
    const x = o[k] ?? [];
    if (!Array.isArray(x) || !x.every((s) => typeof s === "string" && s !== "")) throw new Error(`${k} must be a list of strings`);
    if (x.length > max) throw new Error(`${k} has ${x.length} entries; at most ${max}`);
    return x as string[];
  };
  const patterns = (k: string, o: Record<string, unknown>): ScreenPattern[] => strings(k, o, MAX_PATTERNS).map((s) => ({ user: userPattern(s, false, k) }));
  const programs = strings("programs", t, MAX_PATTERNS);
  const profile: AgentProfile = { name, programs, working: patterns("working", t), idle: patterns("idle", t), from: file };
  if (t.prompt !== undefined) {
    const p = t.prompt;
    if (!p || typeof p !== "object" || Array.isArray(p)) throw new Error("prompt must be a table: { shows = [...], allow = [...], deny = [...] }");
    const o = p as Record<string, unknown>;
    const bad = Object.keys(o).find((k) => !PROMPT_SETTINGS.includes(k));
    if (bad) throw new Error(`unknown prompt setting "${bad}" (expected ${PROMPT_SETTINGS.join(", ")})`);
    const lines = o.lines ?? 6;
    if (typeof lines !== "number" || !Number.isInteger(lines) || lines < 1 || lines > MAX_PROMPT_LINES) throw new Error(`prompt.lines must be a whole number from 1 to ${MAX_PROMPT_LINES}`);
    const keys = (k: string) => {
      const list = strings(k, o, MAX_KEYS);
      if (!list.length) throw new Error(`prompt.${k} must name the keys that answer it`);
      const problem = list.map(keyProblem).find(Boolean);
      if (problem) throw new Error(`prompt.${k}: ${problem}`);
      return list;
    };
    const shows = patterns("shows", o);
    if (!shows.length) throw new Error("prompt.shows must give at least one pattern");
    profile.prompt = { shows, lines, allow: keys("allow"), deny: keys("deny") };
  }
  return profile;
}

/** The built-in profiles with agents.toml's over them (a name there replaces the built-in). */
export function mergeProfiles(user: AgentProfile[]): AgentProfile[] {
  const names = new Set(user.map((p) => p.name));
  return [...user, ...BUILTIN_PROFILES.filter((p) => !names.has(p.name))];
}

/** The profiles in force: the built-ins and agents.toml's; a missing file is none, a bad one a warning. */
export function loadProfiles(env: Record<string, string | undefined> = process.env): { profiles: AgentProfile[]; warnings: string[] } {
  const file = agentsTomlPath(env);
  let text: string;
  try {
    text = readTextFile(file, AGENTS_TOML_MAX);
  } catch (e) {
    const code = (e as { code?: string }).code;
    return { profiles: [...BUILTIN_PROFILES], warnings: code === "ENOENT" ? [] : [`${file}: ${(e as Error).message}`] };
  }
  const { profiles, warnings } = parseAgentsToml(text, file);
  return { profiles: mergeProfiles(profiles), warnings };
}
