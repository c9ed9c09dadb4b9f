// run and shell integration end to end: a real daemon, real bash, zsh and fish in real PTYs with
// the user's own rc files in a private HOME, and the real socket and CLI.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Conn, TestServer, waitFor } from "./harness";

let s: TestServer;

/** The user's start-up files: each sets a variable the test reads back through `run`. */
let rcFiles: Record<"bash" | "zshenv" | "zsh" | "fish", string>;
const snapshot = () => Object.fromEntries(Object.values(rcFiles).map((f) => [f, { bytes: readFileSync(f, "utf8"), mtime: statSync(f).mtimeMs, mode: statSync(f).mode }]));
let before: ReturnType<typeof snapshot>;

beforeAll(async () => {
  s = new TestServer();
  const zdot = join(s.root, "zdot");
  mkdirSync(zdot);
  mkdirSync(join(s.root, "config/fish"), { recursive: true });
  rcFiles = {
    bash: join(s.root, ".bashrc"),
    zshenv: join(zdot, ".zshenv"),
    zsh: join(zdot, ".zshrc"),
    fish: join(s.root, "config/fish/config.fish"),
  };
  writeFileSync(rcFiles.bash, "export FROM_RC=bashrc\nPS1='bash$ '\n");
  writeFileSync(rcFiles.zshenv, "export FROM_ZSHENV=zshenv\n");
  writeFileSync(rcFiles.zsh, "export FROM_RC=zshrc\nPS1='zsh%# '\n");
  writeFileSync(rcFiles.fish, "set -gx FROM_RC fishconfig\n");
  // The user's own ZDOTDIR: zsh must read its files there, and the shell must see it unchanged.
  s.env.ZDOTDIR = zdot;
  before = snapshot();
  await s.start();
});
afterAll(() => s.stop());

const tabNew = async (command: string[]): Promise<number> => {
  const r = await s.v6({ type: "tab_new", command, cwd: s.root });
  expect(r.type).toBe("pane");
  return r.pane;
};

const SHELLS = ["bash", "zsh", "fish"] as const;
const installed = (sh: string) => Bun.which(sh) !== null;

for (const sh of SHELLS) {
  const name = installed(sh) ? sh : `${sh} (SKIPPED: ${sh} is not installed here; .ci/run installs it)`;
  describe(`run in ${name}`, () => {
    test.skipIf(!installed(sh))("exit status, output with wrapped lines joined, the user's rc ran", async () => {
      const pane = await tabNew([sh]);
      const long = "x".repeat(150); // wider than the 80-column pane: it wraps on screen
      const r = await s.v6({ type: "run", pane, command: `echo first; echo ${long}; echo "rc=$FROM_RC"; false`, timeout: 15000 });
      expect(r.type).toBe("run_result");
      expect(r.exit_code).toBe(1);
      expect(r.output).toBe(`first\n${long}\nrc=${{ bash: "bashrc", zsh: "zshrc", fish: "fishconfig" }[sh]}\n`);
      expect(r.truncated).toBe(false);
      // The screen really wrapped the long line.
      expect((await s.screen(pane)).split("\n")).toContain("x".repeat(80));

      const ok = await s.v6({ type: "run", pane, command: "printf 'no newline'", timeout: 15000 });
      expect(ok.exit_code).toBe(0);
      expect(ok.output).toBe("no newline");

      // The CLI prints the output and exits with the command's status.
      const cli = await s.run(["run", String(pane), "--", "echo", "via cli;", "sh", "-c", "'exit 7'"]);
      expect(cli.stdout).toBe("via cli\n");
      expect(cli.code).toBe(7);

      if (sh === "zsh") {
        // zsh's partial-line mark, which ws prints itself after D: no stray mark or blank line once
        // the prompt is drawn (the run ends at D; the mark's padding shows blank until the prompt).
        const lines = (await s.waitScreen(pane, /^zsh[#%] *$/m)).split("\n");
        expect(lines.filter((l) => /^[#%]?\s*$/.test(l))).toEqual([]);
        expect(lines.some((l) => /^no newline[#%]/.test(l))).toBe(true);
        const z = await s.v6({ type: "run", pane, command: 'echo "$FROM_ZSHENV $ZDOTDIR"', timeout: 15000 });
        expect(z.output).toBe(`zshenv ${join(s.root, "zdot")}\n`);
      }
    }, 30000);
  });
}

describe("the user's shell", () => {
  test("a pane started without a command ($SHELL) has integration; a run message without a pane uses the focused pane", async () => {
    const focused = await s.v6({ type: "tab_new", cwd: s.root, focus: true });
    expect(focused.type).toBe("pane");
    // The protocol's default; the CLI names the pane (docs/cli.md: no guessing the target).
    expect(await s.v6({ type: "run", command: 'echo "in $WS_PANE_ID"', timeout: 15000 })).toMatchObject({ exit_code: 0, output: `in ${focused.pane}\n` });
    const cli = await s.run(["run", String(focused.pane), "--", 'echo "in $WS_PANE_ID"']);
    expect(cli).toMatchObject({ code: 0, stdout: `in ${focused.pane}\n` });
    // Shown as the shell it is, not as ws's way of starting it (bash --rcfile <ws's file>).
    const info = await s.v6({ type: "pane_info", pane: focused.pane });
    expect(info.foreground?.argv).toEqual(info.argv);
    const listed = (await s.v6({ type: "pane_list" })).panes.find((p: { pane: number }) => p.pane === focused.pane);
    expect(listed!.command).toEqual(info.argv!);
  }, 30000);
});

describe("run refuses", () => {
  test("not_at_prompt while a command runs; the command is untouched", async () => {
    const pane = await tabNew(["bash"]);
    const events = await Conn.open(s.sock);
    events.send({ v: 6, id: "sub", type: "subscribe", pane, types: ["command_started"] });
    expect((await events.nextJson()).type).toBe("subscribed");
    await s.v6({ type: "run", pane, command: "true", timeout: 15000 }); // the shell is up
    await s.v6({ type: "pane_send", pane, text: "sleep 30", enter: true });
    await waitFor("sleep 30 to start", async () => (await events.nextJson()).command === "sleep 30");
    events.close();
    const r = await s.v6({ type: "run", pane, command: "echo hi", timeout: 5000 });
    expect(r.code).toBe("not_at_prompt");
    expect(r.message).toContain("sleep 30");
    expect(await s.screen(pane)).not.toContain("echo hi");
  }, 30000);

  test("not_at_prompt when text is typed at the prompt; nothing is added to it", async () => {
    const pane = await tabNew(["bash"]);
    await s.v6({ type: "run", pane, command: "true", timeout: 15000 }); // the shell is up
    await s.v6({ type: "pane_send", pane, text: "half-typed" });
    await s.waitScreen(pane, /half-typed$/m);
    const r = await s.v6({ type: "run", pane, command: "echo hi", timeout: 5000 });
    expect(r.code).toBe("not_at_prompt");
    expect(r.message).toContain("typed");
    expect((await s.screen(pane)).split("\n").at(-1)).toMatch(/half-typed$/);
  }, 30000);

  test("no_shell_integration for a pane running sh or cat, at once", async () => {
    for (const command of [["sh"], ["cat"]]) {
      const pane = await tabNew(command);
      const t0 = Date.now();
      const r = await s.v6({ type: "run", pane, command: "echo hi", timeout: 10000 });
      expect(r.code).toBe("no_shell_integration");
      expect(Date.now() - t0).toBeLessThan(3000);
    }
  }, 30000);

  test("a timeout, a bad command, a missing pane", async () => {
    const pane = await tabNew(["bash"]);
    const r = await s.v6({ type: "run", pane, command: "sleep 5", timeout: 300 });
    expect(r.code).toBe("timeout");
    expect(r.message).toContain("still running");
    expect((await s.v6({ type: "run", pane, command: "  ", timeout: 300 })).code).toBe("invalid_params");
    expect((await s.v6({ type: "run", pane, command: "a\nb", timeout: 300 })).code).toBe("invalid_params");
    expect((await s.v6({ type: "run", pane: 9999, command: "true" })).code).toBe("pane_not_found");
  }, 30000);

  test.skipIf(!installed("fish"))("command_not_run when the shell only shows its prompt again (a fish syntax error)", async () => {
    const pane = await tabNew(["fish"]);
    const r = await s.v6({ type: "run", pane, command: "f() { return 3; }", timeout: 10000 });
    expect(r.code).toBe("command_not_run");
  }, 30000);
});

describe("events and waits", () => {
  test("command_started and command_finished reach subscribers; wait_for command_finished answers", async () => {
    const pane = await tabNew(["bash"]);
    await s.v6({ type: "run", pane, command: "true", timeout: 15000 });
    const events = await Conn.open(s.sock);
    events.send({ v: 6, id: "sub", type: "subscribe", pane, types: ["command_started", "command_finished"] });
    expect((await events.nextJson()).type).toBe("subscribed");
    // The command waits for a line from the terminal: it ends only when the test says so, once
    // the wait is in place.
    const command = "read -r _; (exit 4)";
    await s.v6({ type: "pane_send", pane, text: command, enter: true });
    const started = await events.nextJson();
    expect(started).toMatchObject({ event: "command_started", pane, command });
    const waiter = await Conn.open(s.sock);
    waiter.send({ v: 6, id: 1, type: "wait_for", condition: "command_finished", pane, timeout: 15000 });
    // A round trip on another connection: the server has read the wait by its answer.
    await s.v6({ type: "pane_info", pane });
    await s.v6({ type: "pane_send", pane, text: "", enter: true });
    const finished = await events.nextJson();
    events.close();
    expect(finished).toMatchObject({ event: "command_finished", pane, command, exit_code: 4 });
    // Later in the one event order (others, e.g. the pane's label following its program, may fall between).
    expect(finished.seq).toBeGreaterThan(started.seq!);
    expect(await waiter.next()).toMatchObject({ type: "wait_result", condition: "command_finished", pane, exit_code: 4, command });
  }, 30000);

  test("^ and $ match at line starts and ends in wait_for output; ws wait prints the match", async () => {
    const pane = await tabNew(["bash"]);
    await s.v6({ type: "run", pane, command: "printf 'already\\nready\\nready now\\n'", timeout: 15000 });
    const r = await s.v6({ type: "wait_for", condition: "output", pane, pattern: "^ready$", timeout: 5000 });
    expect(r.type).toBe("wait_result");
    expect(r.match).toBe("ready");
    const text = (await s.v6({ type: "pane_read", pane, source: "recent" })).text.split("\n");
    expect(text[r.line! - 1]).toBe("ready");
    const ends = await s.v6({ type: "wait_for", condition: "output", pane, pattern: "(\\w+) now$", timeout: 5000 });
    expect(ends.groups).toEqual(["ready"]);
    const cli = await s.run(["wait", "output", String(pane), "^al(re)ady$"]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe("already\n");
  }, 30000);

  test("ws wait has no time limit unless --timeout is given", async () => {
    // What the CLI asks for: a stand-in server (private directory, our socket) records the line.
    const dir = join(s.root, "standin");
    mkdirSync(dir, { mode: 0o700 });
    const lines: string[] = [];
    const standin = Bun.listen({ unix: join(dir, "ws.sock"), socket: { data: (_c, b) => void lines.push(b.toString()) } });
    const asked = Bun.spawn([...(await import("./harness")).wsArgv(), "wait", "workspace", "later"], { env: { ...s.env, WS_SOCKET: join(dir, "ws.sock") }, stdout: "ignore", stderr: "ignore" });
    try {
      const line = await waitFor("the wait's request", () => lines.join("").split("\n")[0] || undefined);
      expect(JSON.parse(line)).toMatchObject({ type: "wait_for", condition: "workspace_exists", workspace: "later", timeout: 0 }); // 0: no limit
    } finally {
      asked.kill();
      standin.stop(true);
    }
    const waiting = Bun.spawn([...(await import("./harness")).wsArgv(), "wait", "workspace", "later"], { env: s.env, stdout: "pipe", stderr: "pipe" });
    expect((await s.v6({ type: "workspace_new", name: "later" })).type).not.toBe("error");
    expect(await waiting.exited).toBe(0);
    expect(await new Response(waiting.stdout).text()).toBe("later\n");
    const limited = await s.run(["wait", "workspace", "never", "--timeout", "200"]);
    expect(limited.code).toBe(124);
  }, 30000);
});

describe("shell integration files", () => {
  test("the user's rc files are untouched; ws's own files are private", async () => {
    expect(snapshot()).toEqual(before);
    const dirs = [...new Bun.Glob("shell-*").scanSync({ cwd: s.socketDir, onlyFiles: false })];
    expect(dirs.length).toBe(1);
    const dir = join(s.socketDir, dirs[0]!);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of ["bash.rc", ".zshenv", "ws.zsh", "ws.fish"]) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
  });
});

describe("turned off", () => {
  test("WS_SHELL_INTEGRATION=0 in the server's environment: bash gets no hooks, run says so", async () => {
    const off = new TestServer({ env: { WS_SHELL_INTEGRATION: "0" } });
    try {
      await off.start();
      const pane = (await off.v6({ type: "tab_new", command: ["bash"] })).pane;
      await off.v6({ type: "pane_send", pane, text: "echo started-$((6*7))", enter: true });
      await off.waitScreen(pane, "started-42");
      const r = await off.v6({ type: "run", pane, command: "true", timeout: 5000 });
      expect(r.code).toBe("no_shell_integration");
      expect([...new Bun.Glob("shell-*").scanSync({ cwd: off.socketDir, onlyFiles: false })]).toEqual([]);
    } finally {
      await off.stop();
    }
  }, 30000);
});
