import { describe, expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { Grid, BOLD, ITALIC, UNDERLINE, INVERSE, STRIKE, DIM, pal, rgb, textWidth } from "../src/ui/grid";
import { renderPane } from "../src/model/render-cells";
import { DirtyRows } from "../src/model/dirty-rows";
import { ScreenDiff } from "../src/ui/diff";
import { sgr } from "../src/model/sgr";

const write = (t: Terminal, s: string) => new Promise<void>((r) => t.write(s, r));
const term = (cols = 20, rows = 5) => new Terminal({ cols, rows, allowProposedApi: true, scrollback: 100 });

function gridOf(t: Terminal, scroll = 0): Grid {
  const g = new Grid(t.cols, t.rows);
  renderPane(t, g, 0, 0, t.cols, t.rows, scroll);
  return g;
}

function sameCells(a: Grid, b: Grid) {
  for (let y = 0; y < a.rows; y++) expect(a.rowText(y)).toBe(b.rowText(y));
  expect([...a.fg]).toEqual([...b.fg]);
  expect([...a.bg]).toEqual([...b.bg]);
  expect([...a.attrs]).toEqual([...b.attrs]);
  expect([...a.width]).toEqual([...b.width]);
}

describe("grid", () => {
  test("wide chars take two cells and break when overwritten", () => {
    const g = new Grid(6, 1);
    expect(g.text(0, 0, "中a")).toBe(3);
    expect(g.rowText(0)).toBe("中a   ");
    g.set(1, 0, "x", 1);
    expect(g.rowText(0)).toBe(" xa   ");
    expect(g.text(5, 0, "中")).toBe(0); // no room: clipped
    expect(textWidth("e\u0301😀")).toBe(3);
  });

  test("the frame before last becomes the last one: its marked rows copied, or the whole grid when the base was started anew", () => {
    const rows = (g: Grid) => Array.from({ length: g.rows }, (_, y) => g.rowText(y));
    const older = new Grid(4, 3);
    older.text(0, 0, "aaaa");
    older.text(0, 1, "bbbb");
    older.text(0, 2, "cccc");
    const last = new Grid(4, 3);
    last.copyAll(older);
    last.text(0, 1, "XY");
    last.markRows(1, 1);
    // Unmarked rows are the base's, so copying the marked ones is enough.
    let copied = 0;
    const copyCells = older.copyCells.bind(older);
    older.copyCells = (...a: Parameters<Grid["copyCells"]>) => {
      copied += a[3];
      copyCells(...a);
    };
    older.copyAll(last);
    expect(rows(older)).toEqual(rows(last));
    expect(copied).toBe(4);
    // A base started anew since (cleared, drawn into) is copied whole.
    const base = new Grid(4, 3);
    base.text(0, 0, "zzzz");
    const next = new Grid(4, 3);
    next.copyAll(base);
    base.clear();
    base.text(0, 2, "qqqq");
    base.copyAll(next);
    expect(rows(base)).toEqual(rows(next));
  });
});

describe("renderPane", () => {
  test("blank cells keep their pen: a background, inverse, underline or link on a space is drawn, plain blanks are default", async () => {
    const t = term();
    await write(t, "\x1b[44m \x1b[0m\x1b[7m \x1b[0m\x1b[4m \x1b[0m\x1b]8;;http://x/\x07 \x1b]8;;\x07\x1b[45m\x1b[K\x1b[0m\r\n \x1b[1m \x1b[0m");
    const g = gridOf(t);
    expect(g.bg[0]).toBe(pal(4));
    expect(g.attrs[1]).toBe(INVERSE);
    expect(g.attrs[2]! & UNDERLINE).toBe(UNDERLINE);
    expect(g.links.get(3)).toBe(";http://x/");
    expect(g.bg[4]).toBe(pal(5)); // erased in a background colour
    expect(g.bg[t.cols - 1]).toBe(pal(5));
    expect([g.fg[t.cols], g.bg[t.cols], g.attrs[t.cols]]).toEqual([0, 0, 0]);
    expect(g.attrs[t.cols + 1]).toBe(BOLD);
    expect(g.rowText(1)).toBe(" ".repeat(t.cols));
  });

  test("copies text, colours and attributes from xterm", async () => {
    const t = term();
    await write(t, "\x1b[1;31mA\x1b[0;38;2;1;2;3;48;5;200mB\x1b[0;3;4;7;9;2mC\x1b[0m中e\u0301");
    const g = gridOf(t);
    expect(g.rowText(0).startsWith("ABC中e\u0301")).toBe(true);
    expect(g.fg[0]).toBe(pal(1));
    expect(g.attrs[0]).toBe(BOLD);
    expect(g.fg[1]).toBe(rgb(0x010203));
    expect(g.bg[1]).toBe(pal(200));
    expect(g.attrs[2]).toBe(ITALIC | UNDERLINE | INVERSE | STRIKE | DIM);
    expect(g.width[3]).toBe(2);
    expect(g.width[4]).toBe(0);
  });

  test("scroll offset shows scrollback; a rectangle is clipped", async () => {
    const t = term(10, 3);
    await write(t, "l1\r\nl2\r\nl3\r\nl4\r\nl5");
    expect(gridOf(t).rowText(0).trim()).toBe("l3");
    expect(gridOf(t, 2).rowText(0).trim()).toBe("l1");
    expect(gridOf(t, 99).rowText(0).trim()).toBe("l1");
    const g = new Grid(5, 3);
    await write(t, "\r\n中中中");
    renderPane(t, g, 0, 0, 5, 3);
    expect(g.rowText(2)).toBe("中中 "); // the third wide char would cross the edge
  });
});

describe("ScreenDiff", () => {
  test("applying the diffs to a real terminal reproduces the grid", async () => {
    const src = term(), client = term();
    const d = new ScreenDiff();
    const frames = [
      "hello \x1b[1;32mworld\x1b[0m\r\n\x1b[48;2;10;20;30m bg \x1b[0m 中文 e\u0301",
      "\x1b[2;1Hxx\x1b[5;15H\x1b[4mend\x1b[0m",
      "\x1b[1;1H\x1b[2K中\x1b[3;3Habc",
      "\x1b[1;1H\x1b[2Ja",
    ];
    for (const f of frames) {
      await write(src, f);
      const g = gridOf(src);
      g.cursor = { x: src.buffer.active.cursorX, y: src.buffer.active.cursorY, visible: true, shape: 0 };
      await write(client, d.render(g));
      sameCells(gridOf(client), g);
      expect(client.buffer.active.cursorX).toBe(g.cursor.x);
      expect(client.buffer.active.cursorY).toBe(g.cursor.y);
    }
  });

  test("nothing changed → nothing sent; a one-cell change is small", () => {
    const d = new ScreenDiff();
    const a = new Grid(80, 24);
    a.text(0, 0, "prompt $ ");
    a.cursor = { x: 9, y: 0, visible: true, shape: 0 };
    expect(d.render(a).length).toBeGreaterThan(0);
    const b = new Grid(80, 24);
    b.text(0, 0, "prompt $ ");
    b.cursor = { ...a.cursor };
    expect(d.render(b)).toBe("");
    const c = new Grid(80, 24);
    c.text(0, 0, "prompt $ x");
    c.cursor = { x: 10, y: 0, visible: true, shape: 0 };
    const out = d.render(c);
    expect(out).toContain("x");
    expect(out.length).toBeLessThan(50);
    expect(out).not.toContain("prompt");
  });

  test("SGR only when the pen changes; cursor shape and visibility", () => {
    const d = new ScreenDiff();
    const g = new Grid(10, 1);
    g.text(0, 0, "aaaa", { fg: pal(1) });
    g.cursor = { x: 0, y: 0, visible: false, shape: 5 };
    const out = d.render(g);
    expect(out.split(sgr(pal(1), 0, 0)).length - 1).toBe(1);
    expect(out).toContain("\x1b[5 q");
    expect(out).toContain("\x1b[?25l");
    const g2 = new Grid(10, 1);
    g2.text(0, 0, "aaaa", { fg: pal(1) });
    g2.cursor = { x: 3, y: 0, visible: true, shape: 5 };
    expect(d.render(g2)).toBe("\x1b[1;4H\x1b[?25h");
  });

  test("256 and 16 colour forms", () => {
    expect(sgr(pal(3), pal(12), 0)).toBe("\x1b[0;33;104m");
    expect(sgr(pal(100), rgb(0xff0000), BOLD)).toBe("\x1b[0;1;38;5;100;48;2;255;0;0m");
  });
});

describe("drawing only what changed", () => {
  // Random output of every kind that moves cells (text, wraps, scrolls, scroll regions, inserts,
  // deletes, erases, the alternate screen, resets): a screen kept up to date by copying the last
  // one and reading only the rows xterm reports as changed equals one read out in full.
  test("the rows xterm reports changed cover every change", async () => {
    const t = term(12, 6);
    const rows = new DirtyRows(t);
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    const pieces = [
      () => "abcdefghij".slice(0, 1 + rnd(10)),
      () => "\r\n",
      () => "中",
      () => `\x1b[${1 + rnd(6)};${1 + rnd(12)}H`,
      () => `\x1b[${rnd(3)}K`,
      () => `\x1b[${rnd(3)}J`,
      () => `\x1b[${1 + rnd(2)}L`,
      () => `\x1b[${1 + rnd(2)}M`,
      () => `\x1b[${1 + rnd(2)}S`,
      () => `\x1b[${1 + rnd(2)}T`,
      () => `\x1b[${1 + rnd(3)};${4 + rnd(3)}r`,
      () => "\x1b[r",
      () => "\x1bM",
      () => `\x1b[3${rnd(8)}m`,
      () => "\x1b[0m",
      () => "\x1b[?1049h",
      () => "\x1b[?1049l",
      () => `\x1b[${1 + rnd(3)}P`,
      () => `\x1b[${1 + rnd(3)}@`,
      () => "\x1bc",
    ];
    let kept = gridOf(t);
    rows.take();
    for (let i = 0; i < 400; i++) {
      let chunk = "";
      for (let k = 1 + rnd(4); k > 0; k--) chunk += pieces[rnd(pieces.length)]!();
      await write(t, chunk);
      const next = new Grid(t.cols, t.rows);
      next.copyRect(kept, 0, 0, t.cols, t.rows);
      const changed = rows.take();
      if (changed) renderPane(t, next, 0, 0, t.cols, t.rows, 0, changed);
      sameCells(next, gridOf(t));
      kept = next;
    }
  });
  // The attach UI's usual frame: a copy of the last one (Grid.copyAll) with only the changed rows
  // read again and marked; the diff then looks at the marked rows alone.
  test("a frame drawn on a copy of the last one: the client, sent only marked rows, stays right", async () => {
    const t = term(12, 6), client = term(12, 6);
    const rows = new DirtyRows(t);
    const d = new ScreenDiff();
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    const pieces = [() => "abcdefghij".slice(0, 1 + rnd(10)), () => "\r\n", () => "中", () => `\x1b[${1 + rnd(6)};${1 + rnd(12)}H`, () => `\x1b[${rnd(3)}K`, () => `\x1b[${1 + rnd(2)}L`, () => `\x1b[${1 + rnd(2)}M`, () => `\x1b[3${rnd(8)}m`, () => "\x1b[?1049h", () => "\x1b[?1049l", () => "\x1bc"];
    let front = gridOf(t);
    await write(client, d.render(front));
    rows.take();
    let spare = new Grid(t.cols, t.rows);
    for (let i = 0; i < 300; i++) {
      let chunk = "";
      for (let k = 1 + rnd(4); k > 0; k--) chunk += pieces[rnd(pieces.length)]!();
      await write(t, chunk);
      const next = spare;
      next.copyAll(front);
      const changed = rows.take();
      if (changed) {
        next.markRows(changed[0], Math.min(t.rows - 1, changed[1]));
        renderPane(t, next, 0, 0, t.cols, t.rows, 0, changed);
      }
      await write(client, d.render(next));
      sameCells(gridOf(client), gridOf(t));
      spare = front;
      front = next;
    }
    // And it really looks at the marked rows alone: a change in an unmarked row is not sent.
    const next = spare;
    next.copyAll(front);
    next.text(0, 0, "zz");
    expect(d.render(next)).toBe("");
  });
});
