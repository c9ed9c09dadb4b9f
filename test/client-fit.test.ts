// How a client whose terminal is not the session's size sees the session's frame, as tmux 3.3a
// shows a window of another size (checked against a real tmux with two clients of different
// sizes on `window-size latest`): a border and dots beyond a smaller session, the part around
// the cursor of a larger one.
import { expect, test } from "bun:test";
import { Grid } from "../src/ui/grid";
import { fitFrame, viewOffset } from "../src/ui/client-fit";

/** A session frame: row 0 the tab bar, the last row the status line, the rest the panes area
 * with each cell's row and column digits. */
function frame(cols: number, rows: number): Grid {
  const g = new Grid(cols, rows);
  g.text(0, 0, "T".repeat(cols));
  for (let y = 1; y < rows - 1; y++) for (let x = 0; x < cols; x++) g.set(x, y, String((x + y) % 10), 1);
  g.text(0, rows - 1, "S".repeat(cols));
  return g;
}

const rowText = (g: Grid, y: number) => g.rowText(y);

test("a larger client sees the panes area at its top left, tmux's border along it and dots beyond", () => {
  const f = frame(6, 5); // a panes area of 6 × 3
  f.cursor = { x: 2, y: 2, visible: true, shape: 0 };
  const g = new Grid(9, 7);
  expect(fitFrame(f, g)).toEqual({ x: 0, y: 0 });
  expect([1, 2, 3, 4, 5].map((y) => rowText(g, y))).toEqual(["123456│··", "234567│··", "345678│··", "──────┘··", "·········"]);
  // The bars' rows are left to the client's own bars.
  expect(rowText(g, 0).trim()).toBe("");
  expect(rowText(g, 6).trim()).toBe("");
  expect(g.cursor).toMatchObject({ x: 2, y: 2, visible: true });
});

test("a smaller client sees the part around the cursor, which it follows", () => {
  const f = frame(20, 12); // a panes area of 20 × 10
  f.cursor = { x: 15, y: 9, visible: true, shape: 0 };
  const g = new Grid(8, 6); // a view of 8 × 4
  const at = fitFrame(f, g);
  expect(at).toEqual({ x: 11, y: 6, part: true });
  // Its first row is the area's row 6 (frame row 7), from column 11: cells (11 + 7) % 10 on.
  expect(rowText(g, 1)).toBe("89012345");
  expect(g.cursor).toMatchObject({ x: 4, y: 3, visible: true });
  // At the top left, the view starts at 0 and is kept inside the area at the other end.
  expect(viewOffset(20, 8, 1)).toBe(0);
  expect(viewOffset(20, 8, 19)).toBe(12);
  expect(viewOffset(8, 8, 5)).toBe(0);
});

test("a wide character cut at the view's edge becomes a blank", () => {
  const f = new Grid(10, 4);
  f.set(3, 1, "中", 2);
  f.cursor = { x: 0, y: 1, visible: true, shape: 0 };
  const g = new Grid(4, 4);
  fitFrame(f, g);
  expect(g.chars[1 * 4 + 3]).toBe(" ");
  expect(g.width[1 * 4 + 3]).toBe(1);
});

test("with the bars off (status = off) the panes area is the whole frame", () => {
  const f = new Grid(4, 3);
  for (let y = 0; y < 3; y++) for (let x = 0; x < 4; x++) f.set(x, y, String(x + y), 1);
  f.cursor = { x: 1, y: 2, visible: true, shape: 0 };
  const g = new Grid(6, 5);
  expect(fitFrame(f, g, false)).toEqual({ x: 0, y: 0 });
  expect([0, 1, 2, 3, 4].map((y) => g.rowText(y))).toEqual(["0123│·", "1234│·", "2345│·", "────┘·", "······"]);
  expect(g.cursor).toMatchObject({ x: 1, y: 2, visible: true });
});
