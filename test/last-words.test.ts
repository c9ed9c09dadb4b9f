// A pane's last words (what a `wait_for` output sent after it closed still matches) come from its
// last screen, never its history, and a quitting server reads none: on a real in-process Session
// (real panes in real PTYs) with the daemon's Control, every read of a pane's text counted. Then a
// real daemon with many panes full of history quits with kill-server and is gone.
import { afterEach, expect, test } from "bun:test";
import { Session } from "../src/model/session";
import { paneBaseEnv } from "../src/model/launch";
import { Control } from "../src/features/control";
import type { Pane } from "../src/model/pane";
import { processAlive, TestServer, waitFor } from "./harness";

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.killAll("SIGKILL");
});

function session(): { s: Session; control: Control } {
  const s = new Session({ socketPath: "/tmp/ws-last-words-unit.sock", baseEnv: paneBaseEnv({ ...process.env, SHELL: "/bin/sh" }), onEmpty() {} });
  sessions.push(s);
  s.setClientSize(100, 30);
  return { s, control: new Control(s, "boot", Date.now()) };
}

/** Every read of the pane's text from here on: its source, and whether only the screen was read. */
function countReads(p: Pane): { source: string; screenOnly: boolean }[] {
  const reads: { source: string; screenOnly: boolean }[] = [];
  const screen = p.emulator;
  const read = screen.sourceRows.bind(screen);
  screen.sourceRows = (source, styled, screenOnly) => {
    reads.push({ source, screenOnly: !!screenOnly });
    return read(source, styled, screenOnly);
  };
  return reads;
}

/** A program that prints `early`, enough lines to push it into the history, then `late`, and
 * waits for `go` on its input before exiting (status 0). */
const script = (early: string, late: string) => ({ argv: ["sh", "-c", `echo ${early}; seq 1 2000; printf '%0150d' 0; echo ${late}; read go`], cwd: "/tmp" });

test("a pane that exits leaves its last screen as its last words: the history is not read", async () => {
  const { s, control } = session();
  s.newWorkspace("main", { argv: ["sh", "-c", "exec cat"], cwd: "/tmp" }); // stays, so the session never empties
  const { pane } = s.newTab(s.workspace("main"), script("EARLY-WORDS", "LATE-WORDS"));
  await waitFor("the program's last line", () => pane.readText().join("\n").includes("LATE-WORDS"));
  const reads = countReads(pane);
  pane.write("go\n");
  await waitFor("the pane to close", () => !s.panes.has(pane.id));
  expect(reads.length).toBeGreaterThan(0);
  expect(reads.filter((r) => r.source !== "visible" && !r.screenOnly)).toEqual([]);
  expect(control.lastWordsOf(pane.id, "recent")).toContain("LATE-WORDS");
  expect(control.lastWordsOf(pane.id, "visible")).toContain("LATE-WORDS");
  expect(control.lastWordsOf(pane.id, "recent")).not.toContain("EARLY-WORDS");
  // The 150 zeros wrapped at 100 columns; the unwrapped source joins them with what follows.
  expect(control.lastWordsOf(pane.id, "recent-unwrapped")).toContain(`${"0".repeat(150)}LATE-WORDS`);
}, 30_000);

test("a quitting server reads no pane's text as its panes end", async () => {
  const { s, control } = session();
  const ws = s.newWorkspace("main", script("EARLY", "LATE"));
  for (let i = 0; i < 5; i++) s.newTab(ws, script("EARLY", "LATE"));
  const panes = [...s.panes.values()];
  await waitFor("every pane's history", () => panes.every((p) => p.readText().join("\n").includes("LATE")), 20_000);
  const reads = panes.map(countReads);
  s.bus.emit({ type: "server_quitting" });
  await s.killAll("SIGHUP");
  await waitFor("every pane closed", () => s.panes.size === 0);
  expect(reads.flat()).toEqual([]);
  for (const p of panes) expect(control.lastWordsOf(p.id, "recent")).toBeUndefined();
}, 30_000);

test("kill-server with many panes full of history finishes, and the server is gone", async () => {
  const srv = await new TestServer().start();
  try {
    const panes: number[] = [];
    for (let i = 0; i < 16; i++) {
      const r = await srv.v6({ type: "tab_new", cwd: srv.root, command: ["sh", "-c", "seq 1 3000; echo FILLED; exec cat"] });
      panes.push(r.pane as number);
    }
    for (const p of panes) await srv.waitScreen(p, "FILLED", 20_000);
    const pid = srv.daemonPid()!;
    expect((await srv.run(["kill-server"])).code).toBe(0);
    await waitFor("the server to exit", () => !processAlive(pid), 20_000);
  } finally {
    await srv.stop();
  }
}, 90_000);
