// Synchronized output (?2026): a pane's half-drawn frame never reaches the person. A real daemon, a
// program in a pane (or a popup) that enters the mode and draws half a frame on cue
// (fixtures/sync-writer.ts), and an attach client whose frames are replayed into a terminal read
// back as the person sees it.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { useServer, waitFor, type TestServer } from "./harness";
import { RawAttach } from "./raw-attach";
import { OuterTerminal } from "./outer-terminal";

const WRITER = join(import.meta.dir, "fixtures", "sync-writer.ts");
/** A hold long enough that only leaving the mode can end it within the test. */
const held = useServer({ env: { WS_SYNC_HOLD_MS: "60000" } });
/** The default hold: 150 ms. */
const timed = useServer();

async function writerOnScreen(s: TestServer) {
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 80, rows: 24 });
  const outer = new OuterTerminal(c, 80, 24);
  await c.firstFrame();
  const pane = Number((await s.ok(["tab", "new", "--focus", "--", process.execPath, WRITER])).trim());
  await waitFor("the writer on the person's screen", async () => (await outer.rows()).some((r) => r.includes("READY")));
  const key = (ch: string) => c.send({ Key: { code: { Char: ch }, modifiers: "", kind: "Press", state: "" } });
  const screen = async () => (await outer.rows()).join("\n");
  return { c, outer, pane, key, screen };
}

describe("synchronized output", () => {
  test("a half-drawn frame is held, cursor and all, until the program leaves the mode; then the whole frame shows at once", async () => {
    const { c, outer, pane, key, screen } = await writerOnScreen(held);
    try {
      const cursorBefore = { x: outer.term.buffer.active.cursorX, y: outer.term.buffer.active.cursorY };
      key("a");
      await held.waitScreen(pane, "ONE-"); // the pane's emulator has the half frame
      // Something else changes (the tab bar): a frame is drawn, with the pane as it was.
      await held.ok(["pane", "rename", String(pane), "tick"]);
      await waitFor("the frame with the new name", async () => ((await outer.rows())[0]!.includes("tick") ? true : undefined));
      expect(await screen()).not.toContain("ONE-");
      expect({ x: outer.term.buffer.active.cursorX, y: outer.term.buffer.active.cursorY }).toEqual(cursorBefore);
      key("b");
      await waitFor("the finished frame", async () => ((await screen()).includes("ONE-TWO") ? true : undefined));
      // Drawn in one frame: the half never went out on its own.
      expect(outer.bytes).toContain("ONE-TWO");
    } finally {
      c.close();
    }
  }, 60_000);

  test("a program that stays in the mode is drawn once the 150 ms hold is up", async () => {
    const { c, key, screen } = await writerOnScreen(timed);
    try {
      const sent = Date.now();
      key("c");
      await waitFor("the held frame, released by the timeout", async () => ((await screen()).includes("STUCK") ? true : undefined));
      // Not before the hold was up (load only makes it later): the frame was held, then released.
      expect(Date.now() - sent).toBeGreaterThanOrEqual(140);
      key("d");
    } finally {
      c.close();
    }
  }, 60_000);

  test("a popup's program is held the same way: its half frame waits for the rest", async () => {
    const c = await RawAttach.open(held.sock, { v: 1, type: "attach", cols: 80, rows: 24 });
    const outer = new OuterTerminal(c, 80, 24);
    const screen = async () => (await outer.rows()).join("\n");
    let popup: number | undefined;
    try {
      await c.firstFrame();
      // A fresh tab under it: nothing of the earlier tests' frames on screen.
      await held.ok(["tab", "new", "--focus", "--", "sleep", "600"]);
      const r = await held.v6({ type: "popup", command: [process.execPath, WRITER], width: "40", height: "10", close: "key" });
      expect(r.type).toBe("popup");
      popup = r.pane as number;
      await waitFor("the popup's writer on the person's screen", async () => ((await screen()).includes("READY") ? true : undefined));
      const cursorBefore = { x: outer.term.buffer.active.cursorX, y: outer.term.buffer.active.cursorY };
      // The popup has the keys.
      c.send({ Key: { code: { Char: "a" }, modifiers: "", kind: "Press", state: "" } });
      await held.waitScreen(popup, "ONE-");
      // Its label in the box's top edge changes: a frame is drawn, the popup's cells as they were.
      await held.ok(["pane", "rename", String(popup), "ticked"]);
      await waitFor("the frame with the popup's new name", async () => ((await screen()).includes("ticked") ? true : undefined));
      expect(await screen()).not.toContain("ONE-");
      expect({ x: outer.term.buffer.active.cursorX, y: outer.term.buffer.active.cursorY }).toEqual(cursorBefore);
      c.send({ Key: { code: { Char: "b" }, modifiers: "", kind: "Press", state: "" } });
      await waitFor("the popup's finished frame", async () => ((await screen()).includes("ONE-TWO") ? true : undefined));
      expect(outer.bytes).toContain("ONE-TWO");
    } finally {
      if (popup !== undefined) await held.run(["pane", "kill", String(popup)]);
      c.close();
    }
  }, 60_000);

  test("a pane beside an open popup is held too", async () => {
    const c = await RawAttach.open(held.sock, { v: 1, type: "attach", cols: 80, rows: 24 });
    const outer = new OuterTerminal(c, 80, 24);
    const screen = async () => (await outer.rows()).join("\n");
    let popup: number | undefined;
    try {
      await c.firstFrame();
      const pane = Number((await held.ok(["tab", "new", "--focus", "--", process.execPath, WRITER])).trim());
      await waitFor("the writer on the person's screen", async () => ((await screen()).includes("READY") ? true : undefined));
      // A small popup in the middle: the writer's second row stays in sight.
      const r = await held.v6({ type: "popup", command: ["sh", "-c", "printf POPPED; exec sleep 600"], width: "20", height: "5", close: "key" });
      popup = r.pane as number;
      await waitFor("the popup on the person's screen", async () => ((await screen()).includes("POPPED") ? true : undefined));
      await held.ok(["pane", "send", String(pane), "--", "a"]);
      await held.waitScreen(pane, "ONE-");
      await held.ok(["pane", "rename", String(popup), "ticked"]);
      await waitFor("the frame with the popup's new name", async () => ((await screen()).includes("ticked") ? true : undefined));
      expect(await screen()).not.toContain("ONE-");
      await held.ok(["pane", "send", String(pane), "--", "b"]);
      await waitFor("the finished frame", async () => ((await screen()).includes("ONE-TWO") ? true : undefined));
    } finally {
      if (popup !== undefined) await held.run(["pane", "kill", String(popup)]);
      c.close();
    }
  }, 60_000);
});
