// The CLI never hangs on a server that takes connections and says nothing. A
// real daemon, stopped with SIGSTOP (the kernel still accepts connections into its backlog): every
// request that is not a wait gives up at its deadline (10 s, --timeout MS) with a clear message,
// `ws doctor` says the server does not answer and why, and `ws agent send --wait` takes --timeout.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPLY_TIMEOUT_MS } from "../src/client/request";
import { ROOT, TestServer, standInAgentServer, waitFor, wsArgv } from "./harness";
import { Tmux } from "./tmux-driver";

/** Run a ws command; its result and how long it took. */
async function timed(s: TestServer, args: string[], env: Record<string, string> = {}) {
  const started = Date.now();
  const r = await s.run(args, { env });
  return { ...r, ms: Date.now() - started };
}

describe("a stopped server (SIGSTOP)", () => {
  let s: TestServer;
  let pid: number;
  beforeAll(async () => {
    s = await new TestServer().start();
    pid = s.daemonPid()!;
    process.kill(pid, "SIGSTOP");
  });
  afterAll(async () => {
    process.kill(pid, "SIGCONT");
    await s.stop();
  });

  test("ws pane list, ws call, ws events and ws tab new give up at --timeout, saying the server did not answer", async () => {
    const cases: string[][] = [
      ["pane", "list", "--timeout", "1500"],
      ["--timeout=1500", "call", "workspace_list"],
      ["events", "--timeout", "1500"],
      ["tab", "new", "--timeout", "1500"],
    ];
    // All at once: each waits out its own deadline, and none is another's.
    const [j, bad, ...results] = await Promise.all([s.run(["--json", "workspace", "list", "--timeout", "1000"]), s.run(["--timeout", "soon", "pane", "list"]), ...cases.map((args) => timed(s, args))]);
    for (const r of results) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the ws server on ${s.sock} did not answer within 1.5 s`);
      expect(r.stderr).toContain("--timeout");
      // The deadline, not much more (bun's start on a loaded machine is the rest).
      expect(r.ms).toBeGreaterThanOrEqual(1500);
      expect(r.ms).toBeLessThan(1500 + 8000);
    }
    // --json: one error line with the CLI's own code.
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ type: "error", code: "no_answer" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--timeout is a whole number of milliseconds");
  }, 60_000);

  test("a wait given --timeout ends by it, as timeout(1): exit 124 soon after, though the server never answers", async () => {
    const [r, j] = await Promise.all([timed(s, ["wait", "output", "1", "never-printed", "--timeout", "1000"]), s.run(["--json", "wait", "pane", "7", "--timeout", "1000"])]);
    expect(r.code).toBe(124);
    expect(r.stderr).toContain(`ws: timed out after 1000 ms: the ws server on ${s.sock} did not answer`);
    expect(r.ms).toBeGreaterThanOrEqual(1000);
    expect(r.ms).toBeLessThan(1000 + 2000 + 8000);
    expect(j.code).toBe(124);
    expect(JSON.parse(j.stdout)).toMatchObject({ type: "error", code: "timeout" });
  }, 60_000);

  test("with no --timeout a request gives up at the default deadline: 10 s, or WS_REPLY_TIMEOUT_MS", async () => {
    expect(REPLY_TIMEOUT_MS).toBe(10_000);
    // The same default path, waited out at 2 s rather than 10.
    const r = await timed(s, ["workspace", "list"], { WS_REPLY_TIMEOUT_MS: "2000" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("did not answer within 2 s");
    expect(r.ms).toBeGreaterThanOrEqual(2000);
    expect(r.ms).toBeLessThan(2000 + 8000);
  }, 30_000);

  test("ws doctor says the server takes connections but does not answer, because it is stopped", async () => {
    const [r, json] = await Promise.all([timed(s, ["doctor", "--timeout", "1000"]), s.run(["--json", "doctor", "--timeout", "1000"])]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`error default.sock: the server (pid ${pid}) takes connections but does not answer: it is stopped (resume it: kill -CONT ${pid})`);
    expect(r.stdout).not.toContain(": live");
    const j = JSON.parse(json.stdout);
    expect(j.findings).toContainEqual(expect.objectContaining({ level: "error", text: expect.stringContaining("does not answer") }));
  }, 30_000);

  test("ws attach in a real terminal gives up at --timeout, gives the terminal back and says why", async () => {
    const tmux = new Tmux(s.env);
    try {
      await tmux.open("a", `sh -c '${wsArgv().join(" ")} attach --timeout 1500; echo "[ws exited $?]"; sleep 3600'`);
      const screen = await tmux.waitFor("a", "[ws exited", 20_000);
      expect(screen).toContain(`the ws server on ${s.sock} did not answer within 1.5 s`);
      expect(screen).toContain("[ws exited 1]");
      // The terminal is back: the shell's text shows plainly, no ws screen.
      expect(screen).not.toContain("[main]");
    } finally {
      await tmux.kill();
    }
  }, 40_000);

  test("resumed, the same server answers, and doctor says so", async () => {
    process.kill(pid, "SIGCONT");
    try {
      await waitFor("the server to answer again", async () => (await s.run(["workspace", "list", "--timeout", "3000"])).code === 0, 15_000);
      const r = await s.run(["doctor"]);
      expect(r.stdout).toContain(`ok    default.sock: live, answers (pid ${pid})`);
    } finally {
      process.kill(pid, "SIGSTOP");
    }
  }, 30_000);
});

test("ws agent send --wait --timeout: the wait's own timeout (exit 124), not a reply deadline", async () => {
  const { s } = await standInAgentServer();
  try {
    const q = (msg: Record<string, unknown>) => s.v6({ ...msg });
    const shell = (await q({ type: "tab_new", cwd: s.root, command: [] })).pane;
    const agent = (await q({ type: "split", pane: shell, right: true, cwd: s.root, command: ["bash", join(ROOT, "test/fixtures/stand-in-agent.sh"), "SessionStart"], focus: false })).pane;
    await waitFor("the agent to be idle", async () => (await s.call({ type: "dashboard" })).agents.find((a) => a.pane === agent)?.status === "idle");
    // A plain prompt: the stand-in logs it and reports nothing, so only the timeout ends the wait.
    const r = await timed(s, ["agent", "send", "--pane", String(shell), "--wait", "--timeout", "1200", "a plain prompt"]);
    expect(r.code).toBe(124);
    expect(r.stderr).toMatch(/timeout|timed out/i);
    expect(r.ms).toBeGreaterThanOrEqual(1200);
    expect(r.ms).toBeLessThan(1200 + 8000);
    // A wait that ends in time is not cut short by --timeout's reply deadline: the status comes back.
    const ok = await s.run(["agent", "send", "--pane", String(shell), "--wait", "--timeout", "20000", "Stop"]);
    expect(ok).toMatchObject({ code: 0, stdout: "done\n" });
  } finally {
    await s.stop();
  }
}, 60_000);
