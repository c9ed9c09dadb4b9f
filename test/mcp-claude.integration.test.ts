// Claude Code itself (the npm package, installed into a temporary prefix; skipped with a message
// where it can't be) sees ws after `ws mcp install claude`: `claude mcp list` starts `ws mcp`,
// initializes it and says it is connected.
import { afterAll, expect, test } from "bun:test";
import { npmAgent } from "./npm-agent";
import { TestServer } from "./harness";

const claude = npmAgent("@anthropic-ai/claude-code", "claude", "ws-test-claude-code");
const s = new TestServer();
afterAll(() => s.stop());

test("claude mcp list shows ws connected", async () => {
  const why = await claude.install();
  if (why) return console.warn(`skipped: ${why}`);
  await s.start();
  await s.ok(["mcp", "install", "claude"]);
  const p = Bun.spawn([claude.bin, "mcp", "list"], { cwd: s.root, env: { ...s.env, DISABLE_AUTOUPDATER: "1" }, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill(), 90_000);
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  expect(`${out}${err}`).toMatch(/^ws: .* mcp - ✔ Connected$/m);
  // Taken out again, Claude Code no longer lists it.
  await s.ok(["mcp", "uninstall", "claude"]);
  const after = Bun.spawnSync([claude.bin, "mcp", "list"], { cwd: s.root, env: { ...s.env, DISABLE_AUTOUPDATER: "1" }, stdout: "pipe", stderr: "pipe", timeout: 90_000 });
  expect(after.stdout.toString()).not.toContain("ws:");
}, 400_000);
