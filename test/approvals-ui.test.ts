// The inbox on the attached terminal: the status line counts what waits, the Dashboard's
// "Needs you" rows come first, y allows and n denies. A real daemon, a raw attach client replayed
// into a real terminal emulator, and the stand-in Claude Code running the installed hook.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, waitFor, wsArgv } from "./harness";
import type { ApprovalRow, Replies } from "./replies";
import { attachTerminal, openDashboard } from "./outer-terminal";

const AGENT = join(ROOT, "test/fixtures/approval-agent.ts");
let s: TestServer;

beforeAll(async () => {
  s = new TestServer();
  const wrapper = join(s.root, "ws-wrapper");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  Object.assign(s.env, { STANDIN_WS: wrapper, STANDIN_LOG: join(s.root, "prompts") });
  await s.start();
  await s.ok(["hooks", "install", "claude"], { env: { CLAUDE_CONFIG_DIR: join(s.root, ".claude") } });
});
afterAll(() => s.stop());

function agent(pane: number, command: string) {
  const proc = Bun.spawn([process.execPath, AGENT, "Bash", command], {
    env: { ...s.env, CLAUDE_CONFIG_DIR: join(s.root, ".claude"), WS_SOCKET: s.sock, WS_PANE_ID: String(pane) },
    cwd: s.root,
    stdout: "pipe",
    stderr: "inherit",
  });
  return new Response(proc.stdout).text().then((t) => t.trim());
}

/** A person's terminal attached over the socket (test/outer-terminal.ts). */
const attach = (cols = 120, rows = 30) => attachTerminal(s.sock, cols, rows);

const inbox = async (): Promise<ApprovalRow[]> => (JSON.parse(await s.ok(["--json", "inbox"])) as Replies["approval_list"]).approvals;

test("Needs you: the status line counts, the Dashboard lists them first, y allows, n denies with a reason typed on the status line", async () => {
  const c = await attach();
  try {
    await waitFor("the first frame", async () => (await c.screen())[0]!.includes("1:"));
    const first = agent(1, "npm publish");
    await waitFor("the first request", async () => (await inbox()).length === 1, 20000);
    const pane2 = (await s.request({ v: 2, type: "tab_new", name: "second", cwd: s.root })).pane as number;
    const second = agent(pane2, "git push --force");
    await waitFor("both requests", async () => (await inbox()).length === 2, 20000);
    await waitFor("the status line count", async () => (await c.screen()).at(-1)!.includes("? 2 need you"), 20000);

    const dash = await openDashboard(c);
    const at = dash.findIndex((l) => l.includes("Needs you"));
    expect(dash[at + 1]).toMatch(/claude .*\(pane 1\)\s+Bash: npm publish/);
    expect(dash[at + 2]).toMatch(new RegExp(`claude .*second \\(pane ${pane2}\\)\\s+Bash: git push --force`));
    expect(dash.findIndex((l) => /^\s*Agents/.test(l) || l.includes("Agents"))).toBeGreaterThan(at + 2); // at the top

    c.key("y"); // the selection starts on the oldest
    expect(await first).toBe("DECISION allow");
    await waitFor("the count to drop", async () => (await c.screen()).at(-1)!.includes("? 1 needs you"), 20000);

    await openDashboard(c);
    c.key("n"); // asks for a reason on the status line
    await waitFor("the reason prompt", async () => (await c.screen()).at(-1)!.includes("deny: reason"), 20000);
    for (const ch of "not today") c.key(ch);
    c.key("Enter");
    expect(await second).toBe("DECISION deny: not today");
    await waitFor("the count to go", async () => !(await c.screen()).at(-1)!.includes("need"), 20000);
    expect(await inbox()).toEqual([]);

    // prefix ! goes to the oldest request's pane; on the Dashboard, Enter on its row goes there too.
    const activeTabHas = async (pane: number) => (await s.list())[0]!.tabs.find((t) => t.panes.includes(pane))?.active;
    await s.v6({ type: "pane_focus", pane: pane2 });
    await waitFor("the second tab on screen", () => activeTabHas(pane2));
    const third = agent(1, "make deploy");
    const [row] = await waitFor("the third request", async () => {
      const rows = await inbox();
      return rows.length === 1 ? (rows as [ApprovalRow]) : undefined;
    }, 20000);
    c.key(" ", "CONTROL");
    c.key("g");
    await waitFor("prefix g to go to pane 1", () => activeTabHas(1), 20000);
    await s.v6({ type: "pane_focus", pane: pane2 });
    await waitFor("the second tab on screen again", () => activeTabHas(pane2));
    await openDashboard(c);
    c.key("Enter"); // the selection starts on the Needs you row
    await waitFor("Enter to go to pane 1", () => activeTabHas(1), 20000);
    await s.ok(["deny", String(row.id)]);
    expect(await third).toBe("DECISION deny: Denied in ws");

    // An agent blocked on a question of its own (Claude Code's permission_prompt notification, no
    // hook request) is listed there too, with its text.
    const asker = (await s.request({ v: 2, type: "tab_new", name: "asker", cwd: s.root, command: ["bash", join(ROOT, "test/fixtures/stand-in-agent.sh"), "SessionStart", "Permission"] })).pane as number;
    await waitFor("the asker blocked", async () => (await s.v6({ type: "dashboard" })).agents.some((a) => a.pane === asker && a.status === "blocked"), 20000);
    const withQuestion = await openDashboard(c);
    const q = withQuestion.findIndex((l) => l.includes("Needs you"));
    expect(withQuestion[q + 1]).toMatch(new RegExp(`\\(pane ${asker}\\)\\s+Claude needs your permission to use Bash`));
    c.key("q");
  } finally {
    c.close();
  }
}, 90_000);

test("an open Dashboard is live: a new request appears as a row; one that goes takes the selection to the header, so y answers nothing else", async () => {
  const c = await attach();
  try {
    await waitFor("the first frame", async () => (await c.screen())[0]!.includes("1:"));
    const first = agent(1, "make first");
    await waitFor("the first request", async () => (await inbox()).length === 1, 20000);
    c.key(" ", "CONTROL");
    c.key("a");
    await waitFor("the Dashboard with its row", async () => (await c.screen()).some((l) => l.includes("Bash: make first")), 20000);
    // A second agent asks while the Dashboard is open: its row comes without reopening.
    const second = agent(1, "make second");
    const live = await waitFor("the new row on the open Dashboard", async () => {
      const lines = await c.screen();
      return lines.some((l) => l.includes("Bash: make second")) ? lines : undefined;
    }, 20000);
    expect(live.findIndex((l) => l.includes("make first"))).toBeLessThan(live.findIndex((l) => l.includes("make second")));
    // The first is answered elsewhere (a terminal outside ws): its row goes, the selection moves to
    // the header, and y there answers nothing.
    const row1 = (await inbox())[0]!;
    await s.ok(["approve", String(row1.id)]);
    expect(await first).toBe("DECISION allow");
    await waitFor("the first row gone", async () => !(await c.screen()).some((l) => l.includes("make first")), 20000);
    c.key("y");
    c.key("q"); // keys are handled in order: once the Dashboard is closed, y was handled
    await waitFor("the Dashboard closed", async () => !(await c.screen()).some((l) => l.includes("Dashboard")), 20000);
    expect((await inbox()).map((r) => r.summary)).toEqual(["make second"]);
    // Opened again, the selection starts on the row, and y answers it.
    c.key(" ", "CONTROL");
    c.key("a");
    await waitFor("the Dashboard again", async () => (await c.screen()).some((l) => l.includes("make second")), 20000);
    c.key("y");
    expect(await second).toBe("DECISION allow");
  } finally {
    c.close();
  }
}, 90_000);
