// A typed key's plain echo goes to the client's terminal as it comes from the pane, ahead of its
// frame (FrameScheduler.echoAhead): the bare characters, which the frame after the parse finds
// already there. An echo that is not plain text in the default pen gets its frame as before. Either
// way the person's terminal shows what the pane shows. A real daemon, programs in real PTYs, a raw
// attach client whose output a terminal replays.
import { afterEach, expect, test } from "bun:test";
import { useServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { OuterTerminal } from "./outer-terminal";

const s = useServer();
let c: RawAttach | undefined;
afterEach(() => c?.close());

/** A client attached to a new tab running `lead` then cat (raw, no tty echo); its frames kept one by one. */
async function typing(lead: string) {
  c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 80, rows: 24 });
  const outer = new OuterTerminal(c, 80, 24);
  const replay = c.onText!;
  const frames: string[] = [];
  c.onText = (t) => {
    frames.push(t);
    replay(t);
  };
  await c.firstFrame();
  await s.ok(["tab", "new", "--focus", "--", "sh", "-c", `stty raw -echo; printf '${lead}ready'; exec cat`]);
  await waitFor("the pane's prompt on the client", async () => (await outer.rows()).some((r) => r.startsWith("ready")));
  /** Type `text` key by key, each once the last is on the client's screen; the frames its keys brought. */
  const type = async (text: string) => {
    const from = frames.length;
    let shown = "ready";
    for (const ch of text) {
      c!.send({ Key: { code: { Char: ch }, modifiers: "", kind: "Press", state: "" } });
      shown += ch;
      await waitFor(`"${shown}" on the client`, async () => (await outer.rows()).some((r) => r.startsWith(shown)));
    }
    return frames.slice(from);
  };
  return { outer, type };
}

test("a plain echo reaches the client as the bare characters, and the screen is the pane's", async () => {
  const { outer, type } = await typing("");
  const keys = "abcdefghijklmnopqrst";
  const frames = await type(keys);
  // Some echoes may come too late to be waited for on a loaded machine; most are written ahead.
  expect(frames.filter((f) => keys.includes(f) && f.length === 1).length).toBeGreaterThan(0);
  expect((await outer.rows()).find((r) => r.startsWith("ready"))).toBe(`ready${keys}`);
  // The cursor is where the pane's is: after the last key.
  expect(outer.term.buffer.active.cursorX).toBe(`ready${keys}`.length);
});

test("an echo in a colour is drawn by its frame, in that colour", async () => {
  const { outer, type } = await typing("\\033[31m");
  const frames = await type("abcde");
  expect(frames.some((f) => f.length === 1)).toBe(false);
  const row = (await outer.rows()).findIndex((r) => r.startsWith("ready"));
  const cell = outer.term.buffer.active.getLine(row)!.getCell("readyabcde".length - 1)!;
  expect(cell.getChars()).toBe("e");
  expect(cell.isFgPalette() && cell.getFgColor()).toBe(1);
});
