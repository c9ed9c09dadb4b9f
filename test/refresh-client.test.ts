// When the person's terminal measures a cluster differently from ws (a VS16 emoji, a keycap, a skin
// tone, a flag, counted code point by code point), ws places the cursor again after it, so only
// that cell can be off; and refresh-client (tmux's: prefix R, `:refresh-client`, `ws command
// refresh-client`) draws the whole screen again, clearing whatever the terminal left behind.
// The diff against a terminal with older width tables, then a real daemon and attach client.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { Grid } from "../src/ui/grid";
import { ScreenDiff } from "../src/ui/diff";
import { useServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { OuterTerminal } from "./outer-terminal";

describe("clusters a terminal may measure differently", () => {
  test("after a keycap, a VS16 emoji, a skin tone and a flag the next character lands where ws put it", async () => {
    const g = new Grid(30, 1);
    // #️⃣ ©️ ❤️ 👍🏽 🇯🇵: two cells each in ws.
    g.text(0, 0, "#\ufe0f\u20e3A\u00a9\ufe0fB\u2764\ufe0fC👍🏽D🇯🇵E");
    // xterm's own tables are Unicode 6's, measuring each code point alone: #️⃣ and ©️ are one cell there.
    const old = new Terminal({ cols: 30, rows: 1, allowProposedApi: true });
    await new Promise<void>((r) => old.write(new ScreenDiff().render(g), r));
    const at = (x: number) => old.buffer.active.getLine(0)!.getCell(x)!.getChars();
    expect([at(2), at(5), at(8), at(11), at(14)]).toEqual(["A", "B", "C", "D", "E"]);
    old.dispose();
  });

  test("a letter with combining accents is sure: no extra cursor moves", () => {
    const g = new Grid(20, 1);
    g.text(0, 0, "e\u0301e\u0301e\u0301-word");
    const out = new ScreenDiff().render(g);
    // One move to the row's start and the final cursor placement, none in between.
    expect(out.match(/\x1b\[\d+;\d+H/g)!.length).toBe(2);
  });
});

describe("refresh-client", () => {
  const s = useServer();
  let c: RawAttach;
  let outer: OuterTerminal;

  beforeAll(async () => {
    c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 80, rows: 20 });
    outer = new OuterTerminal(c, 80, 20);
    await c.firstFrame();
    await waitFor("the first frame drawn", async () => (await outer.rows()).some((r) => r.includes("main")));
  });
  afterAll(() => c.close());

  const key = (ch: string, modifiers = "") => c.send({ Key: { code: ch === "Enter" ? "Enter" : { Char: ch }, modifiers, kind: "Press", state: "" } });

  /** Scribble on the person's terminal behind ws's back, as a terminal that misdrew would have. */
  async function scribble(): Promise<void> {
    outer.term.write("\x1b[10;30HSTALE-CELLS");
    await waitFor("the scribble", async () => (await outer.rows()).some((r) => r.includes("STALE-CELLS")));
  }

  async function redrawnBy(act: () => void | Promise<void>): Promise<void> {
    await scribble();
    const before = c.redraws;
    await act();
    await waitFor("a full redraw", () => c.redraws > before);
    await waitFor("the stale cells gone", async () => !(await outer.rows()).some((r) => r.includes("STALE-CELLS")));
  }

  test("prefix R draws the whole screen again", async () => {
    await redrawnBy(() => {
      key(" ", "CONTROL");
      key("R");
    });
  });

  test("so does `refresh-client` at the command prompt, and ws command refresh-client", async () => {
    await redrawnBy(async () => {
      key(" ", "CONTROL");
      key(":");
      await waitFor("the prompt", async () => (await outer.rows()).some((r) => r.includes("ws:")));
      for (const ch of "refresh-client") key(ch);
      key("Enter");
    });
    await redrawnBy(() => s.ok(["command", "refresh-client"]).then(() => {}));
  });

  test("ws keys --list names it with its key", async () => {
    const out = await s.ok(["keys", "--list"]);
    expect(out).toMatch(/refresh-client\s+C-Space R\s/);
  });
});
