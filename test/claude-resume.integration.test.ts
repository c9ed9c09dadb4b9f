// The real Claude Code (npm, offline: Bedrock mode with its auth skipped, so it starts and writes
// its session file with no network and no model) in a ws pane with ws's hooks installed: it reports
// its session; after `ws restart` the same pane runs `claude --resume ID` with that id, and Claude
// shows the conversation it had (the prompt typed before the restart) and reports the same session.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { npmAgent } from "./npm-agent";

const claude = npmAgent("@anthropic-ai/claude-code", "claude", "ws-test-claude-code");
let s: TestServer | undefined;
afterAll(() => s?.stop());

/** Every session file Claude wrote under `home` (projects/<dir>/<id>.jsonl). */
function sessionFiles(home: string): string[] {
  const root = join(home, ".claude", "projects");
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((d) => readdirSync(join(root, d)).filter((f) => f.endsWith(".jsonl")).map((f) => f.slice(0, -6)));
}

test("Claude Code reports its session; after ws restart it runs claude --resume with that id and shows the conversation", async () => {
  const why = await claude.install();
  if (why) return console.warn(`skipped: ${why}`);
  s = new TestServer();
  const home = join(s.root, "cc-home");
  const proj = join(s.root, "proj");
  mkdirSync(proj, { recursive: true });
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".claude.json"), JSON.stringify({ hasCompletedOnboarding: true, theme: "dark", numStartups: 5, projects: { [proj]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } } }));
  // Offline, in the server's environment so a restored pane gets it too.
  Object.assign(s.env, { CLAUDE_CODE_USE_BEDROCK: "1", CLAUDE_CODE_SKIP_BEDROCK_AUTH: "1", AWS_REGION: "us-east-1", DISABLE_AUTOUPDATER: "1", HOME: home });
  await s.start();
  expect((await s.run(["hooks", "install", "claude", "--file", join(home, ".claude", "settings.json")])).code).toBe(0);

  const pane = (await s.v6({ type: "tab_new", name: "cc", cwd: proj, command: [claude.bin] })).pane;
  await s.waitScreen(pane, "? for shortcuts", 120_000);
  const row = await waitFor("Claude's session in its row", async () => {
    const r = (await s!.call({ type: "agent_list" })).agents.find((a) => a.pane === pane);
    return r?.session ? r : undefined;
  }, 60_000);
  expect(row).toMatchObject({ agent: "claude", tab: "cc" });
  const session = row.session!;

  // A prompt: Claude writes it to its session file (the model's answer fails offline).
  await s.ok(["pane", "send", String(pane), "remember the word pelican"]);
  await s.waitScreen(pane, "remember the word pelican", 30_000);
  await s.ok(["pane", "keys", String(pane), "Enter"]);
  await waitFor("Claude's session file", () => sessionFiles(home).includes(session), 60_000);

  expect((await s.run(["restart", "--force"])).code).toBe(0);
  await waitFor("the resumed Claude", async () => ((await s!.v6({ type: "pane_info", pane })).argv as string[]).includes("--resume"), 30_000);
  expect((await s.v6({ type: "pane_info", pane })).argv).toEqual([claude.bin, "--resume", session]);
  // Claude shows the conversation it resumed, below ws's marker line.
  const screen = await s.waitScreen(pane, /resumed[\s\S]*remember the word pelican/, 120_000);
  expect(screen).toContain("remember the word pelican");
  // Its hooks report the session it resumed.
  await waitFor("the resumed Claude's report", async () => {
    const r = (await s!.call({ type: "agent_list" })).agents.find((a) => a.pane === pane);
    return r && !r.restored ? r : undefined;
  }, 60_000);
  const after = (await s.call({ type: "agent_list" })).agents.find((a) => a.pane === pane);
  console.log(`Claude's session before the restart ${session}, after ${after?.session}`);
  expect(after).toMatchObject({ agent: "claude", session });
}, 600_000);
