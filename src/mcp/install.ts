// `ws mcp install|uninstall claude|codex|gemini`: add `ws mcp` to an agent's MCP servers, named
// "ws", and take exactly that away again, through the same machinery as `ws hooks install`
// (features/agents/settings-file.ts: merged, backed up, reversible byte for byte).
import { homedir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { editSettingsFile, readJson, SettingsError, writeJsonLike } from "../features/agents/settings-file";

export const MCP_TARGETS = ["claude", "codex", "gemini"] as const;
export type McpTarget = (typeof MCP_TARGETS)[number];

/** The name the agent shows ws's tools under (Claude Code: mcp__ws__pane_read). */
export const SERVER_NAME = "ws";

/** Where each agent keeps its user-wide MCP servers. */
export function mcpConfigPath(target: McpTarget, env: Record<string, string | undefined> = process.env): string {
  const home = env.HOME || homedir();
  if (target === "claude") return env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, ".claude.json") : join(home, ".claude.json");
  if (target === "codex") return join(env.CODEX_HOME || join(home, ".codex"), "config.toml");
  return join(home, ".gemini", "settings.json");
}

const isOurs = (entry: unknown): boolean => {
  const args = (entry as { args?: unknown } | null)?.args;
  return Array.isArray(args) && args.at(-1) === "mcp";
};

// ---- Claude Code (~/.claude.json) and Gemini CLI (~/.gemini/settings.json): mcpServers.ws

function installJson(text: string | null, ws: string[], target: McpTarget): string {
  const settings = readJson(text);
  const servers = settings.mcpServers;
  if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers)))
    throw new SettingsError('"mcpServers" in the settings file is not an object; nothing was changed');
  const have = servers?.[SERVER_NAME];
  if (have !== undefined && !isOurs(have)) throw new SettingsError(`an MCP server named "${SERVER_NAME}" that is not ws mcp is already there; nothing was changed`);
  const entry = { ...(target === "claude" ? { type: "stdio" } : {}), command: ws[0]!, args: [...ws.slice(1), "mcp"] };
  if (have && JSON.stringify(have) === JSON.stringify({ ...have, ...entry })) return text ?? "";
  settings.mcpServers = { ...(servers ?? {}), [SERVER_NAME]: { ...(have ?? {}), ...entry } };
  return writeJsonLike(settings, text);
}

function uninstallJson(text: string): string {
  const settings = readJson(text);
  const servers = settings.mcpServers;
  if (!servers || typeof servers !== "object" || !isOurs(servers[SERVER_NAME])) return text;
  delete servers[SERVER_NAME];
  if (Object.keys(servers).length === 0) delete settings.mcpServers;
  return writeJsonLike(settings, text);
}

// ---- Codex (~/.codex/config.toml): a [mcp_servers.ws] table

const TABLE = `[mcp_servers.${SERVER_NAME}]`;

function readToml(text: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    throw new SettingsError(`config.toml does not parse (${(e as Error).message}); fix it first, nothing was changed`);
  }
}

/** The [mcp_servers.ws] table's text: its header line to the next table's (or the end). */
function tableSpan(text: string): { start: number; end: number } | undefined {
  const m = /^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*"?ws"?[ \t]*\][ \t]*(#.*)?$/m.exec(text);
  if (!m) return undefined;
  const after = m.index + m[0].length;
  const next = /^[ \t]*\[/m.exec(text.slice(after));
  return { start: m.index, end: next ? after + next.index : text.length };
}

function installToml(text: string | null, ws: string[]): string {
  const src = text ?? "";
  const servers = readToml(src).mcp_servers as Record<string, unknown> | undefined;
  const have = servers?.[SERVER_NAME];
  if (have !== undefined && !isOurs(have)) throw new SettingsError(`an MCP server named "${SERVER_NAME}" that is not ws mcp is already there; nothing was changed`);
  const table = `${TABLE}\ncommand = ${JSON.stringify(ws[0])}\nargs = [${[...ws.slice(1), "mcp"].map((a) => JSON.stringify(a)).join(", ")}]\n`;
  const span = tableSpan(src);
  if (span) return src.slice(span.start, span.end).trimEnd() === table.trimEnd() ? src : src.slice(0, span.start) + table + src.slice(span.end);
  const gap = src === "" ? "" : src.endsWith("\n\n") ? "" : src.endsWith("\n") ? "\n" : "\n\n";
  return src + gap + table;
}

function uninstallToml(text: string): string {
  const servers = readToml(text).mcp_servers as Record<string, unknown> | undefined;
  const span = tableSpan(text);
  if (!span || !isOurs(servers?.[SERVER_NAME])) return text;
  const before = text.slice(0, span.start);
  const rest = text.slice(span.end);
  // The blank line install put before the table goes with it when the table was last.
  return (rest === "" ? before.replace(/\n\n$/, "\n") : before) + rest;
}

export interface McpInstallOptions {
  action: "install" | "uninstall";
  target: McpTarget;
  dryRun?: boolean;
  file?: string;
  /** How the agent starts ws; default this executable. */
  ws: string[];
}

const WORDS = { already: ": ws mcp already installed", none: ": no ws mcp found", installed: "added ws mcp to", removed: "removed ws mcp from" };

export function runMcpInstall(o: McpInstallOptions): string {
  const toml = o.target === "codex";
  return editSettingsFile({
    action: o.action,
    dryRun: o.dryRun,
    path: o.file ?? mcpConfigPath(o.target),
    install: toml ? (t) => installToml(t, o.ws) : (t) => installJson(t, o.ws, o.target),
    uninstall: toml ? uninstallToml : uninstallJson,
    backup: (path) => `${path}.ws-mcp-backup`,
    words: WORDS,
  });
}
