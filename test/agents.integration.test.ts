// Agents end to end: a real daemon on a private socket directory, a stand-in agent in real panes
// calling the real `ws report` with the JSON Claude Code's hooks send, and the real socket.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, standInAgentServer, waitFor } from "./harness";
import type { AnyReply, Replies } from "./replies";

const AGENT = join(ROOT, "test/fixtures/stand-in-agent.sh");
let s: TestServer;
let log: string;

beforeAll(async () => {
  ({ s, log } = await standInAgentServer());
});
afterAll(() => s.stop());

interface Agent { pane: number; workspace: string; label: string; status: string; detail?: string; secs: number }
const dashboard = async () => {
  const r = await s.request<AnyReply & { agents: Agent[]; workstreams: unknown[]; ports: Replies["dashboard"]["ports"] }>({ v: 5, type: "dashboard" });
  if (r.type !== "dashboard") throw new Error(JSON.stringify(r));
  return r as { agents: Agent[]; workstreams: unknown[]; ports: Replies["dashboard"]["ports"] };
};
const agentOf = async (pane: number) => (await dashboard()).agents.find((a) => a.pane === pane);
// Waiting for no status resolves with `true` (its callers read nothing from it).
const waitStatus = (pane: number, status: string | undefined, detail?: string): Promise<Agent> =>
  waitFor<Agent | true>(`pane ${pane} to be ${status ?? "without status"}${detail ? ` (${detail})` : ""}`, async () => {
    const a = await agentOf(pane);
    if (status === undefined) return a === undefined;
    return a?.status === status && (detail === undefined || a.detail === detail) ? a : undefined;
  }) as Promise<Agent>;
const send = (pane: number, text: string) => s.request({ v: 2, type: "pane_send", pane, text, enter: true });
const tabNew = async (name: string, command: string[]) => {
  const r = await s.request({ v: 2, type: "tab_new", name, cwd: s.root, command });
  expect(r.type).toBe("pane");
  return r.pane as number;
};

describe("agent status from hook reports", () => {
  test("a stand-in agent started from a pane's shell walks through the statuses", async () => {
    await send(1, `bash ${AGENT} SessionStart`);
    expect((await waitStatus(1, "idle")).label).toBeString();
    await send(1, "UserPromptSubmit");
    const working = await waitStatus(1, "working");
    expect(working.detail).toBeUndefined();
    await send(1, "PreToolUse");
    await waitStatus(1, "working", "Bash");
    await send(1, "PostToolUse");
    await waitStatus(1, "working", undefined);
    await send(1, "Permission");
    const blocked = await waitStatus(1, "blocked", "Claude needs your permission to use Bash");
    expect(blocked.secs).toBeLessThanOrEqual(1);
    expect(blocked.workspace).toBe("main");
    // The clock counts seconds in the status.
    await waitFor("secs to count up", async () => ((await agentOf(1))?.secs ?? 0) >= 2, 8000);
    await send(1, "Stop");
    expect((await waitStatus(1, "done")).secs).toBeLessThanOrEqual(1);
    await send(1, "SessionEnd");
    await waitStatus(1, undefined);
    await send(1, "SessionStart");
    await waitStatus(1, "idle");
    // The agent process exits without a SessionEnd (a crash, ^C): its status goes with it.
    await send(1, "exit");
    await waitStatus(1, undefined);
  }, 30_000);

  test("dashboard: blocked, done, working, idle; longest waiting first; seen turns done idle", async () => {
    const idle = await tabNew("t-idle", ["bash", AGENT, "SessionStart"]);
    await waitStatus(idle, "idle");
    const work = await tabNew("t-work", ["bash", AGENT, "SessionStart", "UserPromptSubmit", "PreToolUse"]);
    await waitStatus(work, "working", "Bash");
    const doneOld = await tabNew("t-done-old", ["bash", AGENT, "UserPromptSubmit", "Stop"]);
    await waitStatus(doneOld, "done");
    const doneNew = await tabNew("t-done-new", ["bash", AGENT, "UserPromptSubmit", "Stop"]);
    await waitStatus(doneNew, "done");
    const blocked = await tabNew("t-blocked", ["bash", AGENT, "UserPromptSubmit", "Permission"]);
    await waitStatus(blocked, "blocked");
    const mine = new Set([idle, work, doneOld, doneNew, blocked]);
    const order = (await dashboard()).agents.filter((a) => mine.has(a.pane));
    expect(order.map((a) => a.pane)).toEqual([blocked, doneOld, doneNew, work, idle]);
    expect(order.map((a) => a.status)).toEqual(["blocked", "done", "done", "working", "idle"]);
    expect((await dashboard()).workstreams).toEqual([]);
    // The CLI prints the same order for people.
    const text = await s.ok(["dashboard"]);
    const at = (pane: number) => text.indexOf(`pane ${pane} `);
    expect(at(blocked)).toBeGreaterThan(-1);
    expect([blocked, doneOld, doneNew, work, idle].map(at)).toEqual([blocked, doneOld, doneNew, work, idle].map(at).sort((a, b) => a - b));
    expect(text).toContain("(Claude needs your permission to use Bash)");

    // The person looks at the older finished agent: it is now idle; the other is still done.
    expect(await s.request({ v: 5, type: "pane_focus", pane: doneOld })).toEqual({ v: 5, type: "ok" });
    await waitStatus(doneOld, "idle");
    expect((await agentOf(doneNew))?.status).toBe("done");
    // The idle prompt a minute later does not bring it back as a fresh finish.
    await send(doneOld, "Idle");
    await s.waitScreen(doneOld, "fired Idle");
    expect((await agentOf(doneOld))?.status).toBe("idle");

    // An agent that is the pane's own program loses its status when the pane closes.
    await s.request({ v: 2, type: "pane_close", pane: idle });
    await waitStatus(idle, undefined);
  }, 30_000);
});

describe("agent_send", () => {
  test("types into the tab's agent, never the asking pane itself, and errors without one", async () => {
    const shell = await tabNew("review", []);
    const split = await s.request({ v: 1, type: "split", pane: shell, right: true, cwd: s.root, command: ["bash", AGENT, "SessionStart"], focus: false });
    const agent = split.pane as number;
    await waitStatus(agent, "idle");
    const r = await s.request({ v: 4, type: "agent_send", pane: shell, text: "Address these review comments" });
    expect(r).toEqual({ v: 5, type: "pane", pane: agent });
    await waitFor("the agent to read the text", () => existsSync(`${log}.${agent}`) && readFileSync(`${log}.${agent}`, "utf8"));
    expect(readFileSync(`${log}.${agent}`, "utf8")).toBe("Address these review comments\n");

    // From the agent's own pane: the only other pane is a plain shell, so there is no agent.
    const self = await s.request({ v: 4, type: "agent_send", pane: agent, text: "x" });
    expect(self.type).toBe("error");
    expect(self.message).toContain("no agent");
    const none = await s.request({ v: 4, type: "agent_send", pane: await tabNew("plain", []), text: "x" });
    expect(none.type).toBe("error");
    expect((await s.request({ v: 4, type: "agent_send", pane: 9999, text: "x" })).message).toContain("no pane 9999");

    // The CLI: ws agent send from inside the pane's tab.
    const cli = await s.run(["agent", "send", "--pane", String(shell), "second prompt"]);
    expect(cli.code).toBe(0);
    await waitFor("the second prompt", () => readFileSync(`${log}.${agent}`, "utf8").includes("second prompt\n"));
  }, 30_000);
});

describe("ports", () => {
  test("a dev server started in a pane shows in workspace_list and the dashboard, and goes when it stops", async () => {
    const pane = await tabNew("dev", []);
    const pidFile = join(s.root, "http.pid");
    await send(pane, `python3 -m http.server 0 --bind 127.0.0.1 & echo $! > ${pidFile}`);
    const port = Number((await s.waitScreen(pane, /port (\d+)/)).match(/port (\d+)/)![1]);
    const tabOf = async () => (await s.list()).flatMap((w) => w.tabs).find((t) => t.panes.includes(pane));
    const tab = await waitFor("the port in workspace_list", async () => ((await tabOf())?.ports ? tabOf() : undefined));
    expect(tab.ports).toEqual([port]);
    const entry = (await dashboard()).ports.find((p) => p.pane === pane);
    expect(entry).toMatchObject({ port, pane, workspace: "main", tab: "dev" });
    expect(entry?.command).toContain("http.server");
    // Tabs without listeners leave ports out.
    expect((await s.list())[0]!.tabs.find((t) => t.name === "plain")).not.toHaveProperty("ports");

    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGTERM");
    await waitFor("the port to go", async () => !("ports" in (await tabOf())!));
    expect((await dashboard()).ports.some((p) => p.pane === pane)).toBe(false);
  }, 30_000);
});

describe("ws hooks (CLI)", () => {
  test("install keeps the user's hooks; uninstall restores the file exactly", async () => {
    const dir = join(s.root, ".claude");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "settings.json");
    const original = `{\n  "model": "sonnet",\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]\n  }\n}\n`;
    writeFileSync(file, original);
    const dry = await s.ok(["hooks", "install", "claude", "--dry-run"]);
    expect(dry).toContain("report Stop --agent claude");
    expect(readFileSync(file, "utf8")).toBe(original);
    await s.ok(["hooks", "install", "claude"]);
    const installed = JSON.parse(readFileSync(file, "utf8"));
    expect(installed.model).toBe("sonnet");
    expect(installed.hooks.Stop[0].hooks[0].command).toBe("notify-send done");
    expect(installed.hooks.Stop[1].hooks[0].command).toMatch(/ report Stop --agent claude$/);
    expect(readFileSync(`${file}.ws-backup`, "utf8")).toBe(original);
    await s.ok(["hooks", "uninstall", "claude"]);
    expect(readFileSync(file, "utf8")).toBe(original);
  }, 30_000);
});
