// ws mcp install|uninstall claude|codex|gemini (docs/mcp.md): ws added to the agent's MCP servers,
// merged with what the user has, and taken back out byte for byte, as ws hooks install does.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { TestServer } from "./harness";

const s = new TestServer(); // not started: these commands only edit files
afterAll(() => s.stop());

const claudeJson = `{"numStartups": 12, "mcpServers": {"github": {"type": "stdio", "command": "gh-mcp", "args": []}}, "projects": {}}`;

test("claude: ~/.claude.json gets mcpServers.ws running `ws mcp`, the user's servers kept; uninstall restores it byte for byte", async () => {
  const file = join(s.root, ".claude.json");
  writeFileSync(file, claudeJson, { mode: 0o600 });
  const said = await s.ok(["mcp", "install", "claude"]);
  expect(said).toContain(`added ws mcp to ${file}`);
  const cfg = JSON.parse(readFileSync(file, "utf8"));
  expect(cfg.numStartups).toBe(12);
  expect(cfg.mcpServers.github.command).toBe("gh-mcp");
  expect(cfg.mcpServers.ws).toMatchObject({ type: "stdio" });
  expect(cfg.mcpServers.ws.args.at(-1)).toBe("mcp");
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(await s.ok(["mcp", "install", "claude"])).toContain("already installed");
  await s.ok(["mcp", "uninstall", "claude"]);
  expect(readFileSync(file, "utf8")).toBe(claudeJson);
  expect(existsSync(`${file}.ws-mcp-backup`)).toBe(false);
});

test("claude: edited since (as Claude Code rewrites the file), uninstall takes out ws alone", async () => {
  const file = join(s.root, "edited.json");
  writeFileSync(file, claudeJson);
  await s.ok(["mcp", "install", "claude", "--file", file]);
  const cfg = JSON.parse(readFileSync(file, "utf8"));
  cfg.numStartups = 13;
  writeFileSync(file, JSON.stringify(cfg));
  await s.ok(["mcp", "uninstall", "claude", "--file", file]);
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ ...JSON.parse(claudeJson), numStartups: 13 });
});

test("a server named ws that is not ws mcp is left alone, and so is a file that is not JSON", async () => {
  const file = join(s.root, "theirs.json");
  const theirs = `{"mcpServers": {"ws": {"command": "websocat"}}}`;
  writeFileSync(file, theirs);
  const r = await s.run(["mcp", "install", "claude", "--file", file]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("not ws mcp");
  expect((await s.run(["mcp", "--grants", "admin"])).code).toBe(2);
  const unknown = await s.run(["mcp", "install", "cursor", "--file", file]);
  expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('TARGET for mcp install is one of claude, codex, gemini, got "cursor"')]);
  // Every local command's listed values are held to, ws hooks' as ws mcp's.
  const hooks = await s.run(["hooks", "install", "cursor", "--file", file]);
  expect([hooks.code, hooks.stderr]).toEqual([2, expect.stringContaining('TARGET for hooks install is one of claude, codex, got "cursor"')]);
  expect(readFileSync(file, "utf8")).toBe(theirs);
  writeFileSync(file, "{ nope");
  expect((await s.run(["mcp", "install", "gemini", "--file", file])).stderr).toContain("not valid JSON");
  expect(readFileSync(file, "utf8")).toBe("{ nope");
});

test("codex: config.toml gets a [mcp_servers.ws] table beside ws hooks' notify; each uninstall takes back its own, and the file comes back exactly", async () => {
  const dir = join(s.root, ".codex");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "config.toml");
  const original = `model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n\n[tui]\nnotifications = true\n`;
  writeFileSync(file, original);
  await s.ok(["mcp", "install", "codex"]);
  await s.ok(["hooks", "install", "codex"]);
  const cfg = parseToml(readFileSync(file, "utf8")) as { model: string; notify: string[]; mcp_servers: Record<string, { command: string; args?: string[] }> };
  expect(cfg.model).toBe("o3");
  expect(cfg.mcp_servers.docs!.command).toBe("docs-mcp");
  expect(cfg.mcp_servers.ws!.args!.at(-1)).toBe("mcp");
  expect(cfg.notify).toContain("report");
  await s.ok(["hooks", "uninstall", "codex"]);
  await s.ok(["mcp", "uninstall", "codex"]);
  expect(readFileSync(file, "utf8")).toBe(original);
});

test("gemini: a settings.json that did not exist is made, then removed again", async () => {
  const file = join(s.root, ".gemini", "settings.json");
  await s.ok(["mcp", "install", "gemini"]);
  expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.ws.args.at(-1)).toBe("mcp");
  expect(await s.ok(["mcp", "uninstall", "gemini", "--dry-run"])).toContain("dry run");
  expect(existsSync(file)).toBe(true);
  await s.ok(["mcp", "uninstall", "gemini"]);
  expect(existsSync(file)).toBe(false);
});
