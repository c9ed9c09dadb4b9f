// A Neovim (a stand-in here) that floods `ws open`'s connection with tiny notifications: 19 MB of
// 5-byte messages used to be decoded as fast as they came, pushing other clients' answers back.
// The stream is bounded: decoded a budget at a time with the loop given back between, and a peer
// that sends more than ws can have asked for is dropped. Another client's requests are answered
// within a deadline all along, the flood is cut short, and the daemon stays up.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, processAlive, waitFor } from "./harness";
import { MAX_UNASKED_MESSAGES } from "../src/features/nvim/rpc";

const STAND_IN_NVIM = join(ROOT, "test/fixtures/stand-in-nvim.py");
const FLOOD_BYTES = 19 * 1024 * 1024;
/** How long another client's request may wait for its answer: generous for a loaded machine. */
const ANSWER_DEADLINE_MS = 5000;

let s: TestServer;
beforeAll(async () => {
  s = await new TestServer().start();
});
afterAll(() => s.stop());

test("a flood of tiny notifications during ws open: others are answered, the flood is cut, the daemon stays up", async () => {
  const sock = join(s.socketDir, "nvim-notify.sock");
  const log = join(s.root, "flood.log");
  const bin = join(s.root, "nvim-bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "nvim"), `#!/bin/sh\nexec python3 ${STAND_IN_NVIM} "$@"\n`, { mode: 0o755 });
  rmSync(sock, { force: true });
  const pane = (await s.v6({ type: "tab_new", name: "nvim-notify", cwd: s.root, command: [join(bin, "nvim"), "--listen", sock], env: { NVIM_STANDIN: "notify-flood", NVIM_STANDIN_LOG: log }, focus: false })).pane;
  await waitFor("the stand-in to listen", async () => (await s.v6({ type: "pane_read", pane })).text.includes("listening"));

  let settled = false;
  const open = s.v6({ type: "open_file", pane, location: join(s.root, "x.txt") }).finally(() => (settled = true));
  // Another client, one request after another while ws open runs: each answered within the deadline.
  let answered = 0;
  while (!settled || answered === 0) {
    const line = await s.rawLine(`${JSON.stringify({ v: 6, type: "workspace_list" })}\n`, ANSWER_DEADLINE_MS);
    expect(JSON.parse(line).type).toBe("workspaces");
    answered++;
  }
  const r = await open;
  expect(r).toMatchObject({ type: "error", code: "nvim_failed" });
  expect(r.message).toContain(`more than ${MAX_UNASKED_MESSAGES} messages`);
  // The stand-in got only a sliver of its flood out before ws hung up.
  await waitFor("the stand-in's count", () => existsSync(log) && readFileSync(log, "utf8") !== "");
  expect(Number(readFileSync(log, "utf8"))).toBeLessThan(FLOOD_BYTES);
  // The daemon is up and serves as before.
  expect(processAlive(s.daemonPid()!)).toBe(true);
  expect((await s.v6({ type: "pane_list" })).panes.some((p: { pane: number }) => p.pane === pane)).toBe(true);
}, 60_000);
