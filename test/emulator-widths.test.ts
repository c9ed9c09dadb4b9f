// Emoji, ZWJ sequences, flags, skin tones, CJK and combining marks take the cells modern
// terminals give them, in ws's screen, in `pane read`, and on the user's terminal. The emulator
// alone, then the real daemon with an attach client whose frames are replayed into a terminal with
// modern widths.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Emulator } from "../src/model/emulator";
import { UNICODE_VERSIONS } from "../src/model/emulator-unicode";
import { RowCells } from "../src/model/emulator-protocol";
import { xtermSpeedupsInstalled } from "../src/model/xterm-speedups";
import { Terminal } from "@xterm/headless";
import { Grid } from "../src/ui/grid";
import { ScreenDiff } from "../src/ui/diff";
import { TestServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { OuterTerminal } from "./outer-terminal";

/** Row 0 of a fresh 20-column emulator after `bytes`: each cell's text and width, and the cursor. */
function parsed(bytes: string): { cells: string[]; cursor: number; text: string } {
  const e = new Emulator({ cols: 20, rows: 3, scrollback: 10 });
  e.parse(new TextEncoder().encode(bytes));
  const row = new RowCells(20, 0, 1);
  e.render(row, 0, 0, 20, 1, 0, [0, 0]);
  const cells: string[] = [];
  for (let x = 0; x < 20; x++) if (row.width[x] !== 0 && (row.chars[x] !== " " || x < e.cursorX)) cells.push(`${row.chars[x]}:${row.width[x]}`);
  const r = { cells, cursor: e.cursorX, text: e.readPane({ source: "visible" }).text };
  e.dispose();
  return r;
}

describe("the emulator's widths", () => {
  test("an emoji takes two cells: the issue's ✅ABCDEF then a move to column 5", () => {
    const r = parsed("✅ABCDEF\x1b[1;5HZ");
    expect(r.text).toBe("✅ABZDEF");
    expect(r.cells.slice(0, 3)).toEqual(["✅:2", "A:1", "B:1"]);
  });

  test("🚀 ⚡ and CJK are wide; the cursor lands where the user's terminal puts it", () => {
    expect(parsed("🚀").cursor).toBe(2);
    expect(parsed("⚡x").cells).toEqual(["⚡:2", "x:1"]);
    expect(parsed("日本語").cursor).toBe(6);
  });

  test("a ZWJ family, a skin tone and a flag are one wide cell each, their text whole", () => {
    const r = parsed("👨‍👩‍👧|👍🏽|🇯🇵|");
    expect(r.cells).toEqual(["👨‍👩‍👧:2", "|:1", "👍🏽:2", "|:1", "🇯🇵:2", "|:1"]);
    expect(r.text).toBe("👨‍👩‍👧|👍🏽|🇯🇵|");
    expect(r.cursor).toBe(9);
  });

  test("the width tables are ws's own (the graphemes addon's clusters), and ws's xterm speedups still apply", () => {
    const e = new Emulator({ cols: 20, rows: 3, scrollback: 10 });
    expect(e.term.unicode.activeVersion).toBe(UNICODE_VERSIONS[0]);
    expect(xtermSpeedupsInstalled()).toBe(true);
    // The scroll shortcut replaces this terminal's own emitter's fire (an own property).
    const inner = (e.term as unknown as { _core: { _bufferService: { _onScroll: object } } })._core._bufferService._onScroll;
    expect(Object.hasOwn(inner, "fire")).toBe(true);
    e.dispose();
  });

  test("combining marks join the cell before them", () => {
    const r = parsed("e\u0301a\u0308\u0323x");
    expect(r.cells).toEqual(["e\u0301:1", "a\u0308\u0323:1", "x:1"]);
    expect(r.cursor).toBe(3);
  });
});

describe("the diff, on a terminal with other width tables", () => {
  test("after an emoji the cursor is placed again: an older terminal misdraws that cell alone", async () => {
    const g = new Grid(20, 2);
    g.text(0, 0, "✅ABC 👨‍👩‍👧D");
    g.text(0, 1, "日本X");
    // xterm's own tables are Unicode 6's: ✅ is one cell there, the family three.
    const old = new Terminal({ cols: 20, rows: 2, allowProposedApi: true });
    await new Promise<void>((r) => old.write(new ScreenDiff().render(g), r));
    const at = (x: number, y: number) => old.buffer.active.getLine(y)!.getCell(x)!.getChars();
    expect([at(2, 0), at(3, 0), at(4, 0)]).toEqual(["A", "B", "C"]);
    expect(at(8, 0)).toBe("D");
    // CJK is two cells everywhere: no extra moves for it.
    expect(at(4, 1)).toBe("X");
    old.dispose();
  });
});

describe("through the daemon to the user's terminal", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await new TestServer().start();
  });
  afterAll(() => s.stop());

  async function attach(cols: number, rows: number) {
    const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols, rows });
    const outer = new OuterTerminal(c, cols, rows);
    await c.firstFrame();
    return { c, outer };
  }

  test("✅ABCDEF then CSI 1;5H Z: ✅ABZDEF in pane read and on the user's screen", async () => {
    const { c, outer } = await attach(100, 20);
    const pane = Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", "printf '\\033[H\\033[2J✅ABCDEF\\033[1;5HZ\\033[1;10H👨‍👩‍👧|🇯🇵|e\\314\\201|日本'; exec cat"])).trim());
    await s.waitScreen(pane, "日本");
    const text = (await s.screen(pane)).split("\n")[0] ?? "";
    expect(text).toBe("✅ABZDEF 👨‍👩‍👧|🇯🇵|e\u0301|日本");
    // The single pane's first row is the screen's second (the tab bar is above it).
    const row = await waitFor("the user's screen to show it", async () => ((await outer.rows())[1] === text ? text : undefined));
    expect(row).toBe(text);
    const cells = await outer.cells(1);
    expect(cells.slice(0, 3)).toEqual([{ ch: "✅", w: 2 }, { ch: "", w: 0 }, { ch: "A", w: 1 }]);
    expect(cells[9]).toEqual({ ch: "👨‍👩‍👧", w: 2 });
    c.close();
    await s.ok(["pane", "close", String(pane)]).catch(() => {});
  }, 60000);

  test("a 160-column row of ✅, then clear, leaves nothing behind", async () => {
    const { c, outer } = await attach(160, 30);
    const pane = Number((await s.ok(["tab", "new", "--focus", "--", "bash", "--norc", "--noprofile"])).trim());
    await waitFor("the new pane's prompt", async () => ((await s.screen(pane)).length > 0 ? true : undefined));
    await s.request({ v: 2, type: "pane_send", pane, text: "printf '✅%.0s' {1..100}; echo", enter: true });
    const shown = await waitFor("the user's screen to show the emoji", async () => {
      const rows = await outer.rows();
      const n = rows.join("").split("✅").length - 1;
      return n >= 100 ? rows : undefined;
    }, 20000);
    // 100 wide emoji fill 200 columns: 80 on the pane's first row of 160, 20 on the next.
    const at = shown.findIndex((r) => r.startsWith("✅✅"));
    expect(shown[at]!.split("✅").length - 1).toBe(80);
    expect(shown[at + 1]!.split("✅").length - 1).toBe(20);
    await s.request({ v: 2, type: "pane_send", pane, text: "clear", enter: true });
    // The clear drew: ws's screen holds no ✅, and neither does the user's once its frames are in.
    await waitFor("the pane to be cleared", async () => (!(await s.screen(pane)).includes("✅") ? true : undefined), 20000);
    const screen = await waitFor("the user's screen to be cleared", async () => {
      const rows = await outer.rows();
      return rows.some((r) => r.includes("✅")) ? undefined : rows;
    }, 20000);
    expect(screen.join("\n")).not.toContain("✅");
    c.close();
  }, 60000);
});
