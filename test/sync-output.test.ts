// Synchronized output (?2026): a pane's half-drawn frame never reaches the person. A real daemon, a
// program in a pane that enters the mode and draws half a frame on cue (fixtures/sync-writer.ts),
// and an attach client whose frames are replayed into a terminal read back as the person sees it.
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
});
