// What a pane's program is doing now (src/model/process-info.ts): a process's cwd and the
// foreground process, read from /proc without blocking; and the UI's split opening in the focused
// program's current directory through it.
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { foregroundProcess, processCwd } from "../src/model/process-info";
import { parseStat } from "../src/platform/linux";
import { useServer, waitFor } from "./harness";

const s = useServer();

test("a process's cwd and argv; a process that has gone has none", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "ws-pi-")));
  const child = Bun.spawn(["sleep", "30"], { cwd: dir, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  try {
    expect(await processCwd(child.pid)).toBe(dir);
    // No controlling terminal: the process itself is what runs.
    expect(await foregroundProcess(child.pid)).toEqual({ pid: child.pid, argv: ["sleep", "30"] });
  } finally {
    child.kill();
    await child.exited;
  }
  expect(await processCwd(child.pid)).toBeUndefined();
  expect(await foregroundProcess(child.pid)).toBeNull();
});

test("/proc/<pid>/stat is read past a command name holding spaces and parentheses", () => {
  const stat = "4242 (a (b) c) S 1 4243 4244 34816 4300 4194304 0 0";
  expect(parseStat(stat)).toEqual({ state: "S", ppid: 1, pgrp: 4243, session: 4244, tpgid: 4300 });
  expect(parseStat("4242 (sh) T 1 4242 4242 0 -1 4194304")).toEqual({ state: "T", ppid: 1, pgrp: 4242, session: 4242, tpgid: -1 });
  expect(parseStat("")).toBeUndefined();
  expect(parseStat("4242 (sh) S x")).toBeUndefined();
});

test("pane_info names the foreground program and its cwd; a split from the keys opens where the focused program is", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "ws-split-cwd-")));
  await s.v6({ type: "pane_send", pane: 1, text: `cd ${dir} && exec sleep 60`, enter: true });
  const info = await waitFor("sleep in the foreground, in the new directory", async () => {
    const i = await s.v6({ type: "pane_info", pane: 1 });
    return i.foreground?.argv?.[0] === "sleep" && i.cwd === dir ? i : undefined;
  });
  expect(info.foreground).toEqual({ pid: info.pid!, argv: ["sleep", "60"] }); // exec: the shell became sleep
  expect(info.start_cwd).not.toBe(dir);
  expect(await s.request({ v: 5, type: "run_command", name: "split-right" })).toMatchObject({ type: "ok" });
  const second = await waitFor("the split's pane", async () => (await s.list())[0]!.tabs[0]!.panes.find((p: number) => p !== 1));
  expect((await s.v6({ type: "pane_info", pane: second })).start_cwd).toBe(dir);
});

test("a pane whose directory is deleted under it: pane_info and pane_list say where it started, as the command line and the save do", async () => {
  const start = realpathSync(mkdtempSync(join(tmpdir(), "ws-cwd-start-")));
  const gone = join(start, "gone");
  mkdirSync(gone);
  const { pane } = await s.v6({ type: "split", pane: 1, right: true, cwd: start, command: ["sh"] });
  try {
    await s.v6({ type: "pane_send", pane, text: `cd ${gone}`, enter: true });
    await waitFor("the shell in the directory", async () => (await s.v6({ type: "pane_info", pane })).cwd === gone);
    rmdirSync(gone);
    // The system now names it "…/gone (deleted)": no directory a program could start in.
    const info = await s.v6({ type: "pane_info", pane });
    expect(info.cwd).toBe(start);
    const row = (await s.v6({ type: "pane_list" })).panes.find((p) => p.pane === pane);
    expect(row?.cwd).toBe(start);
  } finally {
    await s.v6({ type: "pane_close", pane });
    rmSync(start, { recursive: true, force: true });
  }
});
