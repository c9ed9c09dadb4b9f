// Loops that nothing awaits guard their own turns: a throw from a pane's side of the PTY's read
// loop, or from naming one pane's program, is logged there, and the loop goes on for every other
// output chunk and pane. (A throw that escaped would be an unhandled rejection: this process
// counts them, and bun:test fails on them too.)
import { afterAll, afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nativePtyAvailable, spawnNativePty } from "../src/model/pty-native";
import { spawnBunPty } from "../src/model/pty-bun";
import type { Pty, PtyOptions } from "../src/model/pty";
import { EventBus } from "../src/model/events";
import type { Session } from "../src/model/session";
import { ProgramNames } from "../src/features/program-names";
import { waitFor } from "./harness";

const dir = mkdtempSync(join(tmpdir(), "ws-loop-guards-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };

let escaped: unknown[] = [];
const onEscaped = (e: unknown) => void escaped.push(e);
beforeEach(() => {
  escaped = [];
  process.on("unhandledRejection", onEscaped);
  process.on("uncaughtException", onEscaped);
});
afterEach(() => {
  process.off("unhandledRejection", onEscaped);
  process.off("uncaughtException", onEscaped);
});

const spawners: [string, (o: PtyOptions) => Pty, boolean][] = [
  ["native", spawnNativePty, nativePtyAvailable()],
  ["bun", spawnBunPty, true],
];
for (const [name, spawn, available] of spawners) {
  (available ? test : test.skip)(`${name} PTY: output handling that throws loses the rest of nothing, and the exit is still reported`, async () => {
    let text = "";
    let throws = 0;
    let exit: { code: number | null } | undefined;
    const pty = spawn({
      argv: ["sh", "-c", "echo first; read line; echo second-$line; exit 4"],
      cwd: dir,
      env,
      cols: 80,
      rows: 24,
      onData: (b) => {
        text += Buffer.from(b).toString("latin1");
        if (throws++ === 0) throw new Error("the pane's side failed on its first output");
      },
      onExit: (code) => {
        exit = { code };
        throw new Error("the pane's side failed on the exit");
      },
    });
    await waitFor("the first line", () => text.includes("first"));
    pty.write("x\r");
    await waitFor("output after the throw", () => text.includes("second-x"));
    await waitFor("the exit", () => exit);
    expect(exit!.code).toBe(4);
    expect(await pty.exited).toBe(4);
    expect(throws).toBeGreaterThan(1);
    expect(escaped).toEqual([]);
  });
}

(nativePtyAvailable() ? test : test.skip)("naming one pane's program fails: the others are still named, nothing escapes the timer", async () => {
  // Two programs in the foreground of their own terminals.
  const ptys = [0, 1].map(() => spawnNativePty({ argv: ["sleep", "30"], cwd: dir, env, cols: 80, rows: 24, onData: () => {}, onExit: () => {} }));
  try {
    const named = new Map<number, string>();
    const broken = {
      exited: false,
      get pid(): number {
        throw new Error("this pane's process can't be looked at");
      },
    };
    const session = {
      bus: new EventBus(),
      panes: new Map<number, unknown>([
        [1, broken],
        [2, { exited: false, pid: ptys[0]!.pid }],
        [3, { exited: false, pid: ptys[1]!.pid }],
      ]),
      setForeground(id: number, fg: { name: string }) {
        if (id === 2) throw new Error("the session refused pane 2's name");
        named.set(id, fg.name);
      },
    } as unknown as Session;
    const names = new ProgramNames(session);
    try {
      await waitFor("pane 3 named", () => named.get(3) === "sleep");
      // A pane that printed later is still looked at: the failures left the timer working.
      named.clear();
      session.bus.emit({ type: "pane_output", pane: 3 });
      await waitFor("pane 3 named again", () => named.get(3) === "sleep");
      expect(escaped).toEqual([]);
    } finally {
      names.stop();
    }
  } finally {
    for (const p of ptys) {
      p.kill("SIGKILL");
      await p.exited;
    }
  }
});
