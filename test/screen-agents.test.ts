// Agents without hooks, told by their screen: a stand-in agent (test/fixtures/screen-agent.ts, its
// profile in the person's agents.toml) in a real pane of a real daemon. It is detected by its
// foreground program, its idle and working screens become its status (ws agent list, a queued
// prompt), and its permission prompt becomes an inbox item answered by typing its keys, only
// while the pane still shows that same prompt. The profiles' pure parts are checked first.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_PROFILES, loadProfiles, parseAgentsToml, profileFor, programNamesOf } from "../src/features/agents/screen-profiles";
import { promptLines, stillShown } from "../src/features/agents/screen-watch";
import { TestServer, waitFor } from "./harness";

const AGENTS_TOML = `
[standin]
programs = ["screen-agent"]
working = ["esc interrupt"]
idle = ["^› ready$"]
prompt = { shows = ["Permission required"], lines = 3, allow = ["y"], deny = ["n"] }
`;

describe("profiles", () => {
  test("a foreground program is named by argv[0] or an interpreter's script", () => {
    expect(programNamesOf(["/tmp/x/node_modules/.bin/opencode"])).toEqual(["opencode"]);
    expect(programNamesOf(["/usr/bin/node", "--no-warnings", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js"])).toEqual(["node", "index"]);
    expect(programNamesOf(["node", "/home/me/.npm/bin/gemini"])).toEqual(["node", "gemini"]);
    expect(programNamesOf(["bun", "test/fixtures/screen-agent.ts"])).toEqual(["bun", "screen-agent"]);
    expect(profileFor(BUILTIN_PROFILES, ["/opt/opencode-ai/bin/opencode.exe"])?.name).toBe("opencode");
    expect(profileFor(BUILTIN_PROFILES, ["node", "/usr/local/bin/gemini", "--yolo"])?.name).toBe("gemini");
    expect(profileFor(BUILTIN_PROFILES, ["bash"])).toBeUndefined();
    expect(profileFor(BUILTIN_PROFILES, ["vim", "opencode"])).toBeUndefined(); // a file named so is not the agent
  });

  test("agents.toml: a table per agent; one with a mistake is left out with a warning naming it", () => {
    const { profiles, warnings } = parseAgentsToml(
      `${AGENTS_TOML}
[bad-keys]
programs = ["x"]
prompt = { shows = ["Allow"], allow = ["Entr"], deny = ["n"] }
[bad-pattern]
programs = ["y"]
idle = ["(unclosed"]
[typo]
program = ["z"]
`,
      "agents.toml",
    );
    expect(profiles.map((p) => p.name)).toEqual(["standin"]);
    expect(profiles[0]!.prompt).toMatchObject({ lines: 3, allow: ["y"], deny: ["n"] });
    expect(warnings).toEqual([
      expect.stringContaining('[bad-keys]: prompt.allow: "Entr" is not a key name'),
      expect.stringContaining("[bad-pattern]: pattern is not a valid regular expression"),
      expect.stringContaining('[typo]: unknown setting "program"'),
    ]);
    expect(parseAgentsToml("[x\n", "agents.toml").warnings[0]).toMatch(/^agents\.toml:1: /);
  });

  test("agents.toml is read as a file others may control: a FIFO in its place is a warning, never a wait", () => {
    const root = mkdtempSync(join(tmpdir(), "ws-agents-toml-"));
    try {
      const dir = join(root, "ws");
      mkdirSync(dir);
      expect(loadProfiles({ XDG_CONFIG_HOME: root })).toEqual({ profiles: [...BUILTIN_PROFILES], warnings: [] });
      expect(Bun.spawnSync(["mkfifo", join(dir, "agents.toml")]).exitCode).toBe(0);
      const { profiles, warnings } = loadProfiles({ XDG_CONFIG_HOME: root });
      expect(profiles).toEqual([...BUILTIN_PROFILES]);
      expect(warnings).toEqual([expect.stringContaining("agents.toml")]);
      rmSync(join(dir, "agents.toml"));
      writeFileSync(join(dir, "agents.toml"), '[opencode]\nprograms = ["oc"]\n');
      const mine = loadProfiles({ XDG_CONFIG_HOME: root }).profiles;
      expect(mine.filter((p) => p.name === "opencode").map((p) => p.programs)).toEqual([["oc"]]); // it replaces the built-in
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("a prompt's fingerprint is its lines without the borders around them", () => {
    const screen = ["top", "  ┃  △ Permission required   ", "  ┃    $ rm -rf build", "  ┃", "  ┃   Allow once   Reject"];
    const lines = promptLines(screen, 1, 4);
    expect(lines).toEqual(["△ Permission required", "$ rm -rf build", "Allow once   Reject"]);
    expect(stillShown(["x", ...screen], lines)).toBe(true);
    expect(stillShown(screen.map((l) => l.replace("build", "dist")), lines)).toBe(false);
    expect(stillShown(["top"], lines)).toBe(false);
  });
});

describe("a stand-in agent without hooks in a pane", () => {
  let s: TestServer;
  let log: string;
  beforeAll(async () => {
    // Screens are read 150 ms after they change here (250 by default).
    s = new TestServer({ env: { WS_AGENT_SCREEN_MS: "150" } });
    mkdirSync(join(s.root, "config", "ws"), { recursive: true });
    writeFileSync(join(s.root, "config", "ws", "agents.toml"), AGENTS_TOML);
    log = join(s.root, "keys.log");
    writeFileSync(log, "");
    await s.start();
  }, 30_000);
  afterAll(() => s.stop(), 30_000);

  const agentRow = async (pane: number) => (await s.call({ type: "agent_list" })).agents.find((a) => a.pane === pane);
  const waitStatus = (pane: number, status: string) => waitFor(`pane ${pane}'s agent ${status}`, async () => ((await agentRow(pane))?.status === status ? agentRow(pane) : undefined), 20_000);
  const inbox = async () => (await s.call({ type: "approval_list" })).approvals as { id: number; pane: number; agent?: string; tool: string; summary: string; timeout_ms?: number }[];
  const keys = () => readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as string);
  const start = async () => {
    const pane = Number((await s.ok(["tab", "new", "--", "env", `SCREEN_AGENT_LOG=${log}`, process.execPath, join(import.meta.dir, "fixtures", "screen-agent.ts")])).trim());
    await s.waitScreen(pane, "› ready");
    return pane;
  };

  test("detected by its program: idle, working, then done when the turn ends; a prompt queued --when idle goes in then", async () => {
    const pane = await start();
    expect(await waitStatus(pane, "idle")).toMatchObject({ agent: "standin", pane });
    expect(await s.ok(["agent", "list"])).toContain(`pane ${pane}`);
    await s.ok(["agent", "send", "--to", String(pane), "first task"]);
    await waitStatus(pane, "working");
    const queued = await s.v6({ type: "agent_send", to: String(pane), text: "second task", when: "idle" });
    expect(queued).toMatchObject({ queued: true });
    await s.ok(["pane", "keys", String(pane), "."]); // the stand-in's turn ends
    // The turn's end (done) types the queued prompt: the stand-in works on it.
    await s.waitScreen(pane, "turn: second task", 20_000);
    await waitStatus(pane, "working");
    expect((await s.call({ type: "agent_queue_list" })).prompts).toEqual([]);
    await s.ok(["pane", "keys", String(pane), "."]);
    expect(await waitStatus(pane, "done")).toMatchObject({ agent: "standin" });
    await s.ok(["pane", "close", String(pane)]);
  }, 60_000);

  test("a permission prompt on screen: blocked, an inbox item; approve types its allow key; deny its deny key", async () => {
    const pane = await start();
    await waitStatus(pane, "idle");
    await s.ok(["agent", "send", "--to", String(pane), "this needs-permission"]);
    const row = await waitStatus(pane, "blocked");
    expect(row!.detail).toContain("Permission required");
    const [item] = await waitFor("the prompt in the inbox", async () => ((await inbox()).length ? inbox() : undefined));
    expect(item).toMatchObject({ pane, agent: "standin", tool: "△ Permission required", summary: "$ rm -rf build-1 · Allow? (y/n)" });
    expect(item!.timeout_ms).toBeUndefined(); // it waits while it is shown
    const before = keys().length;
    expect((await s.ok(["approve", String(item!.id)])).trim()).toBe(`allowed ${item!.id} (pane ${pane})`);
    await s.waitScreen(pane, "allowed build-1");
    expect(keys().slice(before)).toEqual(["y"]);
    expect(await waitStatus(pane, "done")).toBeDefined();
    expect(await inbox()).toEqual([]);

    await s.ok(["agent", "send", "--to", String(pane), "needs-permission again"]);
    const [second] = await waitFor("the second prompt in the inbox", async () => ((await inbox()).length ? inbox() : undefined));
    expect(second!.summary).toContain("build-2");
    const mark = keys().length;
    await s.ok(["deny", String(second!.id)]);
    await s.waitScreen(pane, "denied build-2");
    expect(keys().slice(mark)).toEqual(["n"]);
    await s.ok(["pane", "close", String(pane)]);
  }, 60_000);

  test("answered in the pane itself: the item goes; a later answer types nothing", async () => {
    const pane = await start();
    await waitStatus(pane, "idle");
    await s.ok(["agent", "send", "--to", String(pane), "needs-permission"]);
    const [item] = await waitFor("the prompt in the inbox", async () => ((await inbox()).length ? inbox() : undefined));
    await s.ok(["pane", "keys", String(pane), "n"]); // the person answers in the pane
    await s.waitScreen(pane, "denied build-1");
    await waitFor("the item to go", async () => (await inbox()).length === 0);
    const mark = keys().length;
    const r = await s.v6({ type: "approval_answer", approval: item!.id, behavior: "allow" });
    expect(r).toMatchObject({ type: "error", code: "approval_not_found" });
    await s.ok(["pane", "keys", String(pane), "z"]); // a marker: every key before it has arrived
    await waitFor("the marker key", () => keys().slice(mark).includes("z"));
    expect(keys().slice(mark)).toEqual(["z"]);
    await s.ok(["pane", "close", String(pane)]);
  }, 60_000);

  test("ws config reload reads agents.toml again and says what is wrong in it", async () => {
    writeFileSync(join(s.root, "config", "ws", "agents.toml"), `${AGENTS_TOML.replace("[standin]", "[renamed]")}\n[broken]\nprograms = "x"\n`);
    const r = await s.run(["config", "reload"]);
    expect(r.stdout + r.stderr).toContain("[broken]: programs must be a list of strings");
    const pane = await start();
    expect(await waitStatus(pane, "idle")).toMatchObject({ agent: "renamed" });
    await s.ok(["pane", "close", String(pane)]);
  }, 60_000);
});

describe("the prompt changed on screen before the answer", () => {
  // Screens are read 2 s after they change: the answer comes while ws still lists the old prompt,
  // so the check at the moment of typing is what refuses it.
  let s: TestServer;
  let log: string;
  beforeAll(async () => {
    s = new TestServer({ env: { WS_AGENT_SCREEN_MS: "2000" } });
    mkdirSync(join(s.root, "config", "ws"), { recursive: true });
    writeFileSync(join(s.root, "config", "ws", "agents.toml"), AGENTS_TOML);
    log = join(s.root, "keys.log");
    writeFileSync(log, "");
    await s.start();
  }, 30_000);
  afterAll(() => s.stop(), 30_000);

  test("another prompt in its place: the answer is refused with prompt_not_shown and nothing is typed", async () => {
    const keys = () => readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as string);
    const pane = Number((await s.ok(["tab", "new", "--", "env", `SCREEN_AGENT_LOG=${log}`, process.execPath, join(import.meta.dir, "fixtures", "screen-agent.ts")])).trim());
    await s.waitScreen(pane, "› ready");
    await s.ok(["pane", "send", String(pane), "needs-permission"]);
    await s.ok(["pane", "keys", String(pane), "Enter"]);
    const items = await waitFor("the prompt in the inbox", async () => {
      const list = (await s.call({ type: "approval_list" })).approvals as { id: number; summary: string }[];
      return list.length ? list : undefined;
    }, 30_000);
    expect(items[0]!.summary).toContain("build-1");
    await s.ok(["pane", "keys", String(pane), "x"]); // the agent draws another prompt in its place
    await s.waitScreen(pane, "build-2");
    const mark = keys().length;
    const r = await s.v6({ type: "approval_answer", approval: items[0]!.id, behavior: "allow" });
    expect(r).toMatchObject({ type: "error", code: "prompt_not_shown" });
    expect((r as { message: string }).message).toContain(`pane ${pane} no longer shows the same standin prompt`);
    // The refused item is gone; nothing reached the agent.
    expect(((await s.call({ type: "approval_list" })).approvals as { id: number }[]).map((a) => a.id)).not.toContain(items[0]!.id);
    await s.ok(["pane", "keys", String(pane), "z"]);
    await waitFor("the marker key", () => keys().slice(mark).includes("z"));
    expect(keys().slice(mark)).toEqual(["z"]);
    await s.waitScreen(pane, "build-2"); // still the second prompt: no y reached it
  }, 60_000);
});
