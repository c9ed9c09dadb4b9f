// compose() on a real in-process Session (real panes in real PTYs, no daemon): a split tab, the
// same tab zoomed, and a popup over it. The expected screen is built from the session's own
// geometry (rects, popupRects, layoutArea), so a border, header or box drawn a cell off fails.
import { afterEach, describe, expect, test } from "bun:test";
import { Session } from "../src/model/session";
import type { Tab } from "../src/model/workspace";
import type { PaneRect } from "../src/model/layout";
import { paneBaseEnv } from "../src/model/launch";
import { barsChanged, compose, type UiView } from "../src/ui/compositor";
import { BOLD, Grid } from "../src/ui/grid";
import { waitFor } from "./harness";

const COLS = 48;
const ROWS = 14;

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.killAll("SIGKILL");
});

/** A pane whose screen shows `word` at its top left, then waits (cat, so nothing else prints). */
const shows = (word: string) => ({ argv: ["sh", "-c", `printf '${word}'; exec cat`], cwd: "/tmp" });

async function scene() {
  const s = new Session({ socketPath: "/tmp/ws-compose-unit.sock", baseEnv: paneBaseEnv({ ...process.env, SHELL: "/bin/sh" }), onEmpty() {} });
  sessions.push(s);
  s.setClientSize(COLS, ROWS);
  const ws = s.newWorkspace("main", shows("LEFT"));
  const left = s.pane(1);
  const right = s.split(left.id, { right: true, focus: false, ...shows("RIGHT") });
  s.renamePane(left.id, "left");
  s.renamePane(right.id, "right");
  const tab = s.activeTab(ws);
  await waitFor("both panes' text", () => left.readText().join("").includes("LEFT") && right.readText().join("").includes("RIGHT"));
  return { s, tab, left, right, words: new Map([[left.id, "LEFT"], [right.id, "RIGHT"]]) };
}

/** Write `text` into `rows` at (x, y), clipped to `max` cells (all ASCII here). */
function put(rows: string[][], x: number, y: number, text: string, max = Infinity): void {
  const row = rows[y]!;
  [...text].slice(0, max).forEach((ch, i) => {
    row[x + i] = ch;
  });
}

/** The layout area as compose should draw it: border everywhere, then each pane's header row
 * (its label in the rule) and its cells (its word on the first row, blanks after). */
function expectedArea(s: Session, tab: Tab, words: Map<number, string>): string[][] {
  const area = s.layoutArea();
  const rows = Array.from({ length: ROWS }, () => Array<string>(COLS).fill(" "));
  for (let y = area.y; y < area.y + area.rows; y++) for (let x = area.x; x < area.x + area.cols; x++) rows[y]![x] = "│";
  for (const r of s.rects(tab)) {
    const pane = s.pane(r.pane);
    if (r.header) {
      put(rows, r.header.x, r.header.y, "─".repeat(r.header.cols));
      put(rows, r.header.x + 1, r.header.y, ` ${pane.id}: ${pane.label} `, r.header.cols - 2);
    }
    for (let y = r.y; y < r.y + r.rows; y++) put(rows, r.x, y, " ".repeat(r.cols));
    put(rows, r.x, r.y, words.get(r.pane)!, r.cols);
  }
  return rows;
}

/** The layout area's rows of the composed grid, and of the expectation. */
function areaText(s: Session, g: Grid): string[] {
  const a = s.layoutArea();
  return Array.from({ length: a.rows }, (_, i) => g.rowText(a.y + i));
}
const areaOf = (s: Session, rows: string[][]) => rows.slice(s.layoutArea().y, s.layoutArea().y + s.layoutArea().rows).map((r) => r.join(""));

const view = (): UiView => ({ prefixPending: false });

describe("compose", () => {
  test("a split tab: each pane in its rectangle, its label in its header, border in between", async () => {
    const { s, tab, left, right, words } = await scene();
    const rects = s.rects(tab);
    expect(rects.map((r) => r.pane)).toEqual([left.id, right.id]);
    // The scene really has a border column and headers, or the comparison below proves little.
    const [a, b] = rects as [PaneRect, PaneRect];
    expect(b.x).toBeGreaterThan(a.x + a.cols);
    expect(a.header).toBeDefined();
    const g = compose(s, view());
    expect(areaText(s, g)).toEqual(areaOf(s, expectedArea(s, tab, words)));
    // The focused pane's header is bold, the other's not; the cursor is in the focused pane.
    expect(g.attrs[a.header!.y * COLS + a.header!.x]! & BOLD).toBe(BOLD);
    expect(g.attrs[b.header!.y * COLS + b.header!.x]! & BOLD).toBe(0);
    expect(g.cursor).toMatchObject({ x: a.x + "LEFT".length, y: a.y, visible: true });
    // Tab bar and status line: the tab's label without the zoom mark, the workspace's name.
    expect(g.rowText(0)).not.toContain(" Z ");
    expect(g.rowText(0).trimEnd().endsWith(" main")).toBe(true);
    expect(g.rowText(ROWS - 1)).toContain(`pane ${left.id} `);
    expect(g.rowText(ROWS - 1)).not.toContain("(zoomed)");
  });

  test("zoomed: the pane fills the whole area, no border or header, the tab marked Z", async () => {
    const { s, tab, left, right, words } = await scene();
    expect(s.zoom(right.id, "on")).toBe(true);
    await waitFor("the zoomed pane's emulator at the area's size", () => right.emulator.cols === COLS && right.emulator.rows === s.layoutArea().rows);
    const area = s.layoutArea();
    expect(s.rects(tab)).toEqual([{ pane: right.id, ...area }]);
    const g = compose(s, view());
    const expected = areaOf(s, expectedArea(s, tab, words));
    expect(expected[0]).toBe("RIGHT".padEnd(COLS));
    expect(expected.slice(1).every((r) => r === " ".repeat(COLS))).toBe(true);
    expect(areaText(s, g)).toEqual(expected);
    expect(areaText(s, g).join("")).not.toContain("LEFT");
    expect(g.rowText(0)).toContain(" Z ");
    expect(g.rowText(ROWS - 1)).toContain(`pane ${right.id} (zoomed)`);
    expect(g.cursor).toMatchObject({ x: "RIGHT".length, y: area.y });
    expect(left.id).not.toBe(right.id);
  });

  test("a popup: a framed box over the layout, its label in the top edge, its pane inside, the cursor in it", async () => {
    const { s, tab, words } = await scene();
    const popup = s.openPopup(1, { width: "24", height: "7", close: "key", ...shows("POP") });
    s.renamePane(popup.id, "pop");
    await waitFor("the popup's text", () => popup.readText().join("").includes("POP"));
    const box = s.popupRects(tab)!;
    const { outer: o, inner } = box;
    expect(o).toMatchObject({ cols: 24, rows: 7 });
    // The box overlaps both panes and the border between them.
    const [a, b] = s.rects(tab) as [PaneRect, PaneRect];
    expect(o.x).toBeLessThan(a.x + a.cols);
    expect(o.x + o.cols).toBeGreaterThan(b.x);
    const rows = expectedArea(s, tab, words);
    put(rows, o.x, o.y, "┌" + "─".repeat(o.cols - 2) + "┐");
    for (let y = o.y + 1; y < o.y + o.rows - 1; y++) put(rows, o.x, y, "│" + " ".repeat(o.cols - 2) + "│");
    put(rows, o.x, o.y + o.rows - 1, "└" + "─".repeat(o.cols - 2) + "┘");
    put(rows, o.x + 2, o.y, ` ${popup.id}: pop `, o.cols - 4);
    put(rows, inner.x, inner.y, "POP");
    const g = compose(s, view());
    expect(areaText(s, g)).toEqual(areaOf(s, rows));
    expect(g.cursor).toMatchObject({ x: inner.x + "POP".length, y: inner.y, visible: true });

    // Closed, the layout underneath is whole again.
    s.closePopup(tab);
    expect(areaText(s, compose(s, view()))).toEqual(areaOf(s, expectedArea(s, tab, words)));
  });

  test("a frame on a copy of the last one keeps the bars while they say the same, and redraws them when they change", async () => {
    const { s, tab } = await scene();
    const reuse = (last: Grid, into: Grid) => ({ into, base: last, unchanged: () => ({}) });
    const rowsOf = (g: Grid) => Array.from({ length: ROWS }, (_, y) => g.rowText(y));
    const first = compose(s, view());
    // Nothing changed: neither bar is drawn again, so neither is marked for the diff.
    const same = compose(s, view(), reuse(first, new Grid(COLS, ROWS)));
    expect(rowsOf(same)).toEqual(rowsOf(first));
    expect(same.changedRows[0]).toBe(0);
    expect(same.changedRows[ROWS - 1]).toBe(0);
    // The tab renamed, a message and the prefix: both bars drawn again, as a fresh frame draws them.
    s.renameTab(s.currentWorkspace, tab, "renamed");
    const changed = compose(s, { prefixPending: true, message: "hello" }, reuse(same, first));
    const fresh = compose(s, { prefixPending: true, message: "hello" });
    expect(rowsOf(changed)).toEqual(rowsOf(fresh));
    expect([...changed.fg]).toEqual([...fresh.fg]);
    expect([...changed.attrs]).toEqual([...fresh.attrs]);
    expect(changed.rowText(0)).toContain("renamed");
    expect(changed.rowText(ROWS - 1)).toContain("hello");
    expect(changed.changedRows[0]).toBe(1);
    expect(changed.changedRows[ROWS - 1]).toBe(1);
  });

  test("an echo's frame takes the bars from its base without working them out, and barsChanged says when they are out of date", async () => {
    const { s, tab } = await scene();
    const rowsOf = (g: Grid) => Array.from({ length: ROWS }, (_, y) => g.rowText(y));
    const first = compose(s, view());
    expect(barsChanged(first, s, view())).toBe(false);
    // The tab renamed and a message shown: a frame that takes the bars from its base still shows
    // the old ones, marks neither for the diff, and says they are out of date.
    s.renameTab(s.currentWorkspace, tab, "renamed");
    const now: UiView = { prefixPending: false, message: "hello" };
    const kept = compose(s, now, { into: new Grid(COLS, ROWS), base: first, unchanged: () => ({}), barsFromBase: true });
    expect(rowsOf(kept)).toEqual(rowsOf(first));
    expect(kept.changedRows[0]).toBe(0);
    expect(kept.changedRows[ROWS - 1]).toBe(0);
    expect(barsChanged(kept, s, now)).toBe(true);
    // The frame after it works them out: as a fresh frame draws them, and up to date.
    const next = compose(s, now, { into: first, base: kept, unchanged: () => ({}) });
    expect(rowsOf(next)).toEqual(rowsOf(compose(s, now)));
    expect(next.rowText(0)).toContain("renamed");
    expect(next.rowText(ROWS - 1)).toContain("hello");
    expect(barsChanged(next, s, now)).toBe(false);
    // Without a base there is nothing to take them from: they are drawn.
    const fresh = compose(s, now, { barsFromBase: true });
    expect(rowsOf(fresh)).toEqual(rowsOf(next));
  });
});
