// Bare `ws` starts a server when none runs and attaches; `ws --local` runs a
// private server that lives only as long as that client.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor, wsArgv } from "./harness";
import { Tmux } from "./tmux-driver";

const WS = wsArgv().join(" ");
const server = new TestServer(); // not started: bare `ws` must start it
const tmux = new Tmux(server.env);
afterAll(async () => {
  await tmux.kill();
  await server.stop();
});

test("bare ws starts the server and attaches; detach leaves it running", async () => {
  expect(existsSync(server.sock)).toBe(false);
  await tmux.open("bare", `cd ${server.root} && ${WS}; echo "[ws exited $?]"; sleep 3600`);
  await tmux.waitFor("bare", "[main] tab 1/1");
  expect((await server.list()).length).toBe(1);
  await tmux.keys("bare", "C-Space", "d");
  await tmux.waitFor("bare", "[ws exited 0]");
  expect((await server.list())[0]!.name).toBe("main");
});

test("ws --local is private to its client and goes away with it", async () => {
  await tmux.open("local", `cd ${server.root} && ${WS} --local; echo "[ws exited $?]"; sleep 3600`);
  await tmux.waitFor("local", "[main] tab 1/1");
  const local = readdirSync(server.socketDir).filter((f) => /^ws-\d+\.sock$/.test(f));
  expect(local.length).toBe(1);
  await tmux.keys("local", "C-Space", "Q");
  await tmux.waitFor("local", "Quit the ws server and close its only pane? (y/n)");
  await tmux.keys("local", "y");
  await tmux.waitFor("local", "[ws exited 0]");
  await waitFor("the local server's socket to go", () => !readdirSync(server.socketDir).some((f) => /^ws-\d+\.sock$/.test(f)));
  // Quitting a --local server keeps no save: nothing would ever restore it by that name.
  const stateDir = join(server.env.XDG_STATE_HOME!, "ws");
  expect(existsSync(stateDir) ? readdirSync(stateDir).filter((f) => f.startsWith("ws-") && f.includes(".session")) : []).toEqual([]);
  // The default server was never touched.
  expect((await server.list())[0]!.name).toBe("main");
});

test("detaching from ws --local says the server ends with it, and it does", async () => {
  await tmux.open("local-d", `cd ${server.root} && ${WS} --local; echo "[ws exited $?]"; sleep 3600`);
  await tmux.waitFor("local-d", "[main] tab 1/1");
  await tmux.keys("local-d", "C-Space", "d");
  const screen = await tmux.waitFor("local-d", "[ws exited 0]");
  expect(screen).toContain("the --local server ends with this session");
  expect(screen).not.toContain("ws attach to come back");
  await waitFor("the local server's socket to go", () => !readdirSync(server.socketDir).some((f) => /^ws-\d+\.sock$/.test(f)));
});
