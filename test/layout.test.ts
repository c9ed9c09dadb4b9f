// The layout tree's pure functions: no PTY needed.
import { expect, test } from "bun:test";
import { leaf, neighbour, paneRects, panesOf, removePane, resizePane, splitPane, swapPanes, type Rect } from "../src/model/layout";

const area: Rect = { x: 0, y: 1, cols: 80, rows: 22 };

test("one pane fills the area, without a header", () => {
  expect(paneRects(leaf(1), area, false)).toEqual([{ pane: 1, ...area }]);
});

test("a right split gives the new pane `size` columns and spends one on the separator", () => {
  const l = splitPane(leaf(1), 1, 2, "right", area, 30);
  const [a, b] = paneRects(l, area, true);
  expect(b!.cols).toBe(30);
  expect(a!.cols + 1 + b!.cols).toBe(80);
  expect(b!.x).toBe(a!.cols + 1);
  expect(a!.header).toEqual({ x: 0, y: 1, cols: a!.cols });
  expect(a!.rows).toBe(21); // the header row is not the program's
});

test("a below split gives the new pane `size` rows its program sees", () => {
  const l = splitPane(leaf(1), 1, 2, "below", area, 7);
  const [a, b] = paneRects(l, area, true);
  expect(b!.rows).toBe(7);
  expect(a!.rows + 1 + b!.rows + 1).toBe(22);
  expect(b!.header!.y).toBe(a!.y + a!.rows);
});

test("without size the space is halved; nested splits keep every cell inside the area", () => {
  let l = splitPane(leaf(1), 1, 2, "right", area);
  l = splitPane(l, 2, 3, "below", area);
  l = splitPane(l, 1, 4, "below", area, 5);
  const rects = paneRects(l, area, true);
  expect(rects.map((r) => r.pane).sort()).toEqual([1, 2, 3, 4]);
  for (const r of rects) {
    expect(r.x).toBeGreaterThanOrEqual(0);
    expect(r.x + r.cols).toBeLessThanOrEqual(80);
    expect(r.header!.y).toBeGreaterThanOrEqual(1);
    expect(r.y + r.rows).toBeLessThanOrEqual(23);
  }
  expect(Math.abs(rects.find((r) => r.pane === 1)!.cols - rects.find((r) => r.pane === 2)!.cols)).toBeLessThanOrEqual(1);
  expect(rects.find((r) => r.pane === 4)!.rows).toBe(5);
});

test("removing a pane gives its space to its sibling; the last pane leaves nothing", () => {
  let l = splitPane(leaf(1), 1, 2, "right", area);
  l = splitPane(l, 2, 3, "below", area);
  const without2 = removePane(l, 2)!;
  expect(panesOf(without2)).toEqual([1, 3]);
  expect(removePane(leaf(1), 1)).toBeUndefined();
  expect(panesOf(removePane(removePane(l, 3)!, 1)!)).toEqual([2]);
});

test("resize moves the nearest split of that direction; swap exchanges places", () => {
  const l = splitPane(leaf(1), 1, 2, "right", area);
  const before = paneRects(l, area, true);
  const grown = paneRects(resizePane(l, 1, "right", 5, area, true), area, true);
  expect(grown[0]!.cols).toBe(before[0]!.cols + 5);
  expect(grown[1]!.cols).toBe(before[1]!.cols - 5);
  const shrunk = paneRects(resizePane(l, 2, "right", 3, area, true), area, true);
  expect(shrunk[1]!.cols).toBe(before[1]!.cols + 3);
  expect(resizePane(l, 1, "below", 3, area, true)).toEqual(l); // no split of that direction
  expect(panesOf(swapPanes(l, 1, 2))).toEqual([2, 1]);
});

test("neighbour finds the pane in a direction", () => {
  let l = splitPane(leaf(1), 1, 2, "right", area);
  l = splitPane(l, 2, 3, "below", area);
  const rects = paneRects(l, area, true);
  expect(neighbour(rects, 1, "right")).toBeOneOf([2, 3]);
  expect(neighbour(rects, 2, "down")).toBe(3);
  expect(neighbour(rects, 3, "up")).toBe(2);
  expect(neighbour(rects, 3, "left")).toBe(1);
  expect(neighbour(rects, 1, "left")).toBeUndefined();
});
