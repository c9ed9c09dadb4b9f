// Agents come back resumed after a restart: stand-ins for Codex and Gemini CLI (each CLI's real
// resume arguments and hook payloads, test/fixtures/stand-in-resumable.sh) in real panes of a real
// daemon, restarted with `ws restart`. The restored pane runs the CLI's resume command for the
// session it reported; one cut off mid-turn is marked interrupted; prompts queued for it wait for
// the resumed agent to report ready; a template leaf's `resume` command or `resume = false` wins.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, standInAgentServer, waitFor, writtenLines } from "./harness";

const FIXTURE = join(ROOT, "test/fixtures/stand-in-resumable.sh");
let s: TestServer;
let bin: string;
let log: string;

beforeAll(async () => {
  ({ s, log } = await standInAgentServer());
  // Each stand-in is run by the CLI's own name: that is how ws finds the agent in a command.
  bin = join(s.root, "bin");
  mkdirSync(bin, { recursive: true });
  for (const name of ["codex", "gemini"]) writeFileSync(join(bin, name), `#!/bin/sh\nexec bash '${FIXTURE}' "$0" "$@"\n`, { mode: 0o755 });
});
afterAll(() => s.stop());

const agentRow = async (pane: number) => (await s.call({ type: "agent_list" })).agents.find((a) => a.pane === pane);
const started = (pane: number) => writtenLines(join(s.root, `argv.${pane}`));
const prompts = (pane: number) => (existsSync(`${log}.${pane}`) ? readFileSync(`${log}.${pane}`, "utf8") : "");
/** A narrow pane wraps long lines: read its screen as one line. */
const shows = (pane: number, text: string | RegExp) =>
  waitFor(`pane ${pane} to show ${text}`, async () => {
    const flat = (await s.screen(pane)).replaceAll("\n", "");
    return typeof text === "string" ? flat.includes(text) : text.test(flat);
  }, 20_000);
const argvOf = async (pane: number) => (await s.v6({ type: "pane_info", pane })).argv as string[];

async function agentTab(name: string, command: string[]): Promise<{ pane: number; session: string }> {
  const pane = (await s.v6({ type: "tab_new", name, cwd: s.root, command })).pane;
  const row = await waitFor(`pane ${pane}'s agent to report its session`, async () => {
    const r = await agentRow(pane);
    return r?.session ? r : undefined;
  });
  return { pane, session: row.session! };
}

test("Gemini cut off mid-turn comes back resumed (gemini --resume ID), marked interrupted; a prompt queued --when done waits for it", async () => {
  const { pane, session } = await agentTab("gem", [join(bin, "gemini")]);
  expect(await agentRow(pane)).toMatchObject({ agent: "gemini", tab: "gem", status: "idle", session });
  await s.ok(["pane", "send", String(pane), "work\n"]);
  await waitFor("the agent to work", async () => (await agentRow(pane))?.status === "working");
  await s.ok(["agent", "send", "--to", String(pane), "--when", "done", "after the restart"]);

  // ws restart refuses while it works (no terminal here to ask), naming it; --force goes on.
  const refused = await s.run(["restart"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(new RegExp(`working .*pane ${pane}  main / gem · gemini  session ${session.slice(0, 8)}`));
  expect((await s.run(["restart", "--force"])).code).toBe(0);

  // The same pane runs Gemini resumed on its session.
  await s.waitScreen(pane, `gemini session ${session} resumed`, 20_000);
  expect(await argvOf(pane)).toEqual([join(bin, "gemini"), "--resume", session]);
  expect(started(pane)).toEqual(["gemini ", `gemini --resume ${session}`]);
  expect(await s.screen(pane, true)).toMatch(new RegExp(`── restored \\(saved [^)]*\\), gemini session ${session.slice(0, 8)}[\\s\\S]*resumed \\(its turn was interrupted\\) ──`));
  // Until it reports: interrupted on the Dashboard, its queued prompt held back.
  await waitFor("the restored row", async () => (await agentRow(pane))?.restored === true, 15_000);
  expect(await agentRow(pane)).toMatchObject({ status: "working", interrupted: true, session, queued: 1 });
  expect((await s.ok(["dashboard"])).split("\n").find((l) => l.includes(`pane ${pane} `))).toMatch(/^\s*interrupted /);
  expect(prompts(pane)).toBe("");
  // Ready again (its SessionStart): the queued prompt goes into the resumed session, once.
  await s.ok(["pane", "send", String(pane), "ready\n"]);
  await waitFor("the queued prompt to reach the resumed agent", () => prompts(pane) === "after the restart\n", 15_000);
  const row = await agentRow(pane);
  expect(row).toMatchObject({ status: "idle", session });
  expect(row!.interrupted).toBeUndefined();
  expect(row!.restored).toBeUndefined();
  await s.ok(["pane", "send", String(pane), "exit\n"]);
}, 120_000);

test("Codex comes back as codex resume ID; ws agent list and dashboard --json name it", async () => {
  const { pane, session } = await agentTab("cdx", [join(bin, "codex")]);
  const row = await agentRow(pane);
  expect(row).toMatchObject({ pane, agent: "codex", tab: "cdx", workspace: "main", status: "done", session });
  // The dashboard's rows are agent_list's, field for field: two reads, so asked again while the
  // pane's label moves (the agent's program ending hands the pane back to its shell).
  const mine = (rows: { pane: number; secs: number }[]) => rows.filter((r) => r.pane === pane).map(({ secs: _s, ...r }) => r);
  let dash: unknown;
  let list: unknown;
  await waitFor("the dashboard's rows to be agent_list's", async () => {
    dash = mine(JSON.parse(await s.ok(["--json", "dashboard"])).agents);
    list = mine(JSON.parse(await s.ok(["--json", "agent", "list"])).agents);
    return JSON.stringify(dash) === JSON.stringify(list);
  }, 10_000).catch(() => {});
  expect(dash).toEqual(list);
  expect((await s.ok(["agent", "list"])).split("\n").find((l) => l.includes(`pane ${pane} `))).toMatch(/^done .*main \/ cdx · codex {2}session /);

  expect((await s.run(["restart"])).code).toBe(0); // done, not working: no question
  await s.waitScreen(pane, `codex session ${session} resumed`, 20_000);
  expect(await argvOf(pane)).toEqual([join(bin, "codex"), "resume", session]);
  await s.ok(["pane", "send", String(pane), "ready\n"]);
  await waitFor("the resumed agent's report", async () => (await agentRow(pane))?.restored === undefined);
  expect(await agentRow(pane)).toMatchObject({ agent: "codex", status: "done", session });
  await s.ok(["pane", "send", String(pane), "exit\n"]);
}, 120_000);

test("a template leaf's resume command is used, and resume = false starts the agent fresh", async () => {
  const tree = {
    type: "split",
    direction: "right",
    ratio: 0.5,
    first: { type: "pane", command: [join(bin, "gemini")], resume: [join(bin, "gemini"), "--resume", "{session}", "--extra"] },
    second: { type: "pane", command: [join(bin, "gemini")], resume: false },
  };
  const applied = await s.v6({ type: "layout_apply", name: "tpl", root: tree });
  expect(applied.type).toBe("layout");
  const [custom, off] = applied.panes as [number, number];
  const sessions = await waitFor("both to report", async () => {
    const [a, b] = [await agentRow(custom), await agentRow(off)];
    return a?.session && b?.session ? [a.session, b.session] : undefined;
  });
  expect((await s.run(["restart"])).code).toBe(0);
  await shows(custom, `gemini session ${sessions[0]} resumed`);
  expect(await argvOf(custom)).toEqual([join(bin, "gemini"), "--resume", sessions[0]!, "--extra"]);
  await shows(off, /\) ──gemini session \S+ fresh/);
  expect(await argvOf(off)).toEqual([join(bin, "gemini")]);
  const fresh = await waitFor("the fresh agent's report", async () => {
    const r = await agentRow(off);
    return r && !r.restored ? r : undefined;
  });
  expect(fresh.session).not.toBe(sessions[1]);
  for (const p of [custom, off]) await s.ok(["pane", "send", String(p), "exit\n"]);
}, 120_000);
