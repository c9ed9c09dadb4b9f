// `prefix Q` and `prefix x` ask first (tmux's confirm-before): `y` does it, any
// other key cancels. A person at a real terminal (tmux) attached to a real server; keys.toml
// `confirm = false` makes them immediate again; run_command, being explicit, never asks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { Tmux, PREFIX, attachCommand, statusLine } from "./tmux-driver";
import { newConfirm, promptKey } from "../src/ui/prompt";
import type { KeyCode } from "../src/protocol/events";

const attachCmd = attachCommand();
const STATUS = /\[main\] tab \d+\/\d+/;

const paneCount = async (s: TestServer) => (await s.list()).flatMap((w) => w.tabs.flatMap((t) => t.panes)).length;

test("the answer: y (or Y) confirms; n, Escape, Ctrl-C, Enter, the prefix cancel", () => {
  const key = (code: KeyCode, modifiers = "NONE") => ({ code, modifiers, kind: "Press" as const, state: "" });
  const p = newConfirm("Close pane 2 (bash)? (y/n)", () => {});
  expect(promptKey(p, key({ Char: "y" }))).toBe("submit");
  expect(promptKey(p, key({ Char: "Y" }, "SHIFT"))).toBe("submit");
  for (const k of [key({ Char: "n" }), key("Esc"), key({ Char: "c" }, "CONTROL"), key("Enter"), key({ Char: " " }, "CONTROL"), key({ Char: "y" }, "ALT")])
    expect(promptKey(p, k)).toBe("cancel");
});

describe("with the default keys", () => {
  let server: TestServer;
  let tmux: Tmux;
  beforeAll(async () => {
    server = await new TestServer().start();
    tmux = new Tmux(server.env);
  });
  afterAll(async () => {
    await tmux.kill();
    await server.stop();
  });

  test("prefix x asks; Escape, n and Ctrl-C keep the pane; y closes the pane it asked about", async () => {
    await tmux.open("x", attachCmd);
    await tmux.waitFor("x", STATUS);
    await tmux.keys("x", PREFIX, "%");
    await tmux.waitFor("x", /─ 2: bash/);

    for (const cancel of ["Escape", "n", "C-c"]) {
      await tmux.keys("x", PREFIX, "x");
      const asked = await tmux.waitFor("x", "Close pane 2 (bash)? (y/n)");
      expect(statusLine(asked)).toContain("Close pane 2 (bash)? (y/n)");
      await tmux.keys("x", cancel);
      await tmux.waitFor("x", (s) => !s.includes("Close pane") && STATUS.test(statusLine(s)));
      expect(await paneCount(server)).toBe(2);
    }
    // The answer went to the question, not to the shell.
    expect(await server.screen(2)).not.toMatch(/\$ n\s*$/m);

    // The question is about the pane focused when the key was pressed, even if focus moves.
    await tmux.keys("x", PREFIX, "x");
    await tmux.waitFor("x", "Close pane 2 (bash)?");
    expect((await server.request({ v: 5, type: "pane_focus", pane: 1 })).type).toBe("ok");
    await tmux.keys("x", "y");
    await waitFor("pane 2 to close", async () => (await paneCount(server)) === 1);
    expect((await server.list())[0]!.tabs[0]!.panes).toEqual([1]);

    // The last pane: nothing to ask, the status line says why it stays.
    await tmux.keys("x", PREFIX, "x");
    await tmux.waitFor("x", "can't close the last pane in ws");
    expect(await paneCount(server)).toBe(1);
  });

  test("run_command close-pane (a script) does not ask", async () => {
    await tmux.keys("x", PREFIX, "%");
    await tmux.waitFor("x", /─ 3: bash/);
    expect((await server.request({ v: 5, type: "run_command", name: "close-pane" })).type).toBe("ok");
    expect(await paneCount(server)).toBe(1);
    expect(await tmux.capture("x")).not.toContain("Close pane");
  });

  test("a question left open is dropped when another client attaches: its next key is not the answer", async () => {
    await tmux.keys("x", PREFIX, "%");
    await tmux.waitFor("x", /─ 4: bash/);
    await tmux.keys("x", PREFIX, "x");
    await tmux.waitFor("x", "Close pane 4 (bash)?");
    await tmux.open("x2", attachCmd);
    await tmux.waitFor("x2", STATUS);
    await tmux.text("x2", "y");
    await server.waitScreen(4, /y$/m); // typed into the shell
    expect(await paneCount(server)).toBe(2);
    await tmux.keys("x2", "BSpace");
  });

  test("prefix Q asks; n keeps everything; y quits, saving the session, and the next start restores it", async () => {
    await tmux.open("q", attachCmd);
    await tmux.waitFor("q", STATUS);
    await tmux.keys("q", PREFIX, "Q");
    await tmux.waitFor("q", "Quit the ws server and close all 2 panes? (y/n)");
    await tmux.keys("q", "n");
    await tmux.waitFor("q", (s) => !s.includes("Quit the ws") && STATUS.test(statusLine(s)));
    expect(await paneCount(server)).toBe(2);

    await tmux.keys("q", PREFIX, "Q");
    await tmux.waitFor("q", "Quit the ws server");
    await tmux.keys("q", "y");
    const gone = await tmux.waitFor("q", "[ws exited 0]");
    expect(gone).toContain("the ws server quit; its session is saved");
    await waitFor("the socket to go", () => !existsSync(server.sock));
    expect(existsSync(join(server.env.XDG_STATE_HOME!, "ws", "default.session"))).toBe(true);

    await server.start();
    expect(await paneCount(server)).toBe(2);
  });
});

describe("with keys.toml confirm = false", () => {
  let server: TestServer;
  let tmux: Tmux;
  beforeAll(async () => {
    server = new TestServer();
    server.writeKeys("confirm = false\n");
    await server.start();
    tmux = new Tmux(server.env);
  });
  afterAll(async () => {
    await tmux.kill();
    await server.stop();
  });

  test("prefix x closes at once; prefix Q still asks before it quits", async () => {
    await tmux.open("n", attachCmd);
    await tmux.waitFor("n", STATUS);
    await tmux.keys("n", PREFIX, "%");
    await tmux.waitFor("n", /─ 2: bash/);
    await tmux.keys("n", PREFIX, "x");
    await waitFor("pane 2 to close", async () => (await paneCount(server)) === 1);
    expect(await tmux.capture("n")).not.toContain("Close pane");
    await tmux.keys("n", PREFIX, "Q");
    await tmux.waitFor("n", "Quit the ws server and close its only pane? (y/n)");
    await tmux.keys("n", "y");
    await tmux.waitFor("n", "[ws exited 0]");
    await waitFor("the socket to go", () => !existsSync(server.sock));
    expect(readdirSync(server.socketDir).filter((f) => f.endsWith(".sock"))).toEqual([]);
  });
});
