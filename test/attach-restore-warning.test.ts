// A saved session that could not be loaded is told to the person on screen, not only in the log.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, wsArgv } from "./harness";
import { Tmux } from "./tmux-driver";

const s = new TestServer();
const tmux = new Tmux(s.env);
afterAll(async () => {
  await tmux.kill();
  await s.stop();
});

test("attaching after an unreadable save shows the warning", async () => {
  const dir = join(s.env.XDG_STATE_HOME!, "ws");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, "default.session"), "\x00\x01 this is not a ws session\n{{{", { mode: 0o600 });
  const started = await s.run(["start"]);
  expect(started.code).toBe(0);
  await tmux.open("ws", `${wsArgv().join(" ")} attach; sleep 3600`, 160, 40);
  const screen = await tmux.waitFor("ws", "saved session not restored");
  expect(screen).toContain("[main]");
});
