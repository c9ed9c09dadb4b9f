// What an attached person sees of agents: a real daemon, a raw attach client on the real socket
// whose output is replayed into a real terminal emulator, and a stand-in agent in a real pane.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { notifyKinds } from "../src/features/agents/ui-feature";
import { notificationBytes } from "../src/protocol/notification";
import { ROOT, TestServer, waitFor, wsArgv } from "./harness";
import { attachTerminal } from "./outer-terminal";

const AGENT = join(ROOT, "test/fixtures/stand-in-agent.sh");
let s: TestServer;

beforeAll(async () => {
  s = new TestServer();
  const wrapper = join(s.root, "ws-wrapper");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
  Object.assign(s.env, { STANDIN_WS: wrapper, STANDIN_LOG: join(s.root, "prompts") });
  await s.start();
});
afterAll(() => s.stop());

/** A person's terminal attached over the socket (test/outer-terminal.ts). */
const attach = (cols = 100, rows = 30) => attachTerminal(s.sock, cols, rows);

test("notification bytes: bell, OSC 9, OSC 777, control characters stripped, configurable", () => {
  expect(notificationBytes(notifyKinds({}), "ws", "claude\x1b]0;x\x07 is done")).toBe(
    "\x07\x1b]9;ws: claude ]0;x  is done\x07\x1b]777;notify;ws;claude ]0;x  is done\x07",
  );
  expect(notificationBytes(notifyKinds({ WS_AGENT_NOTIFY: "off" }), "ws", "x")).toBe("");
  expect(notificationBytes(notifyKinds({ WS_AGENT_NOTIFY: "bell" }), "ws", "x")).toBe("\x07");
});

test("a blocked agent is marked in the tab bar and status line, notified, and on the Dashboard", async () => {
  const c = await attach(140); // wide enough for the whole row, session and detail included
  try {
    await waitFor("the first frame", async () => (await c.screen())[0]!.includes("1:"));
    const r = await s.request({ v: 2, type: "tab_new", name: "claude", cwd: s.root, command: ["bash", AGENT, "SessionStart"] });
    const agent = r.pane as number;
    await s.waitScreen(agent, "stand-in agent ready");
    await s.request({ v: 2, type: "pane_send", pane: agent, text: "Permission", enter: true });

    const bar = await waitFor("the tab bar mark", async () => {
      const [top] = await c.screen();
      return top!.includes("2:claude !") ? top : undefined;
    });
    expect(bar).not.toContain("1:bash !");
    await waitFor("the status line summary", async () => (await c.screen()).at(-1)!.includes("! 1 blocked"));
    await waitFor("OSC 9 and 777 notifications", () =>
      c.raw().includes(`\x1b]9;ws: claude (pane ${agent}) needs you: Claude needs your permission to use Bash\x07`) &&
      c.raw().includes(`\x1b]777;notify;ws;claude (pane ${agent}) needs you`),
    );

    // Prefix a opens the Dashboard on the most urgent agent; Enter goes to it.
    c.key(" ", "CONTROL");
    c.key("a");
    const dash = await waitFor("the Dashboard", async () => {
      const lines = await c.screen();
      return lines.some((l) => l.includes("Dashboard")) ? lines : undefined;
    });
    // The agent's row is row.ts's (as `ws dashboard` prints it): status, time, pane, workspace / tab · label, session, detail.
    expect(dash.some((l) => new RegExp(`!\\s+\\d+[smh]  main / bash \\(pane ${agent}\\)  Claude needs your permission to use Bash`).test(l))).toBe(true);
    expect(dash.some((l) => new RegExp(`! blocked\\s+\\d+[smh]  pane ${agent}  main / claude · bash  session standin-\\S*  \\(Claude needs your permission to use Bash\\)`).test(l))).toBe(true);
    expect(dash.some((l) => l.includes("[ new-tab ]"))).toBe(true);
    c.key("Enter");
    await waitFor("the agent's tab to be active", async () => {
      const tabs = (await s.list())[0]!.tabs;
      return tabs.find((t) => t.panes.includes(agent))?.active;
    });
  } finally {
    c.close();
  }
}, 30_000);

test("the Dashboard shows each agent's queued prompts", async () => {
  const c = await attach();
  try {
    await waitFor("the first frame", async () => (await c.screen())[0]!.includes("1:"));
    const r = await s.v6({ type: "tab_new", name: "busy", cwd: s.root, command: ["bash", AGENT, "UserPromptSubmit"] });
    const agent = r.pane as number;
    await waitFor("the agent to work", async () => (await s.v6({ type: "dashboard" })).agents.some((a) => a.pane === agent && a.status === "working"));
    for (const text of ["then this", "and this"]) expect(await s.v6({ type: "agent_send", to: String(agent), text, when: "idle" })).toMatchObject({ queued: true });
    c.key(" ", "CONTROL");
    c.key("a");
    const row = await waitFor("the agent's row with its queue", async () => (await c.screen()).find((l) => l.includes(`  pane ${agent}  `) && l.includes("working")));
    expect(row).toMatch(new RegExp(`^\\s*\\S? ?working\\s+\\d+[smh]  pane ${agent}  main / busy\\b.*  \\[2 queued\\]\\s*$`));
    c.key("q");
  } finally {
    c.close();
  }
}, 30_000);
