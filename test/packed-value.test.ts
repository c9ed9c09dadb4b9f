// A resting pane's state is kept packed (src/model/packed-value.ts): what comes back must be the
// same value, shared parts still shared, class instances of the plain kind made again as
// instances of their class, other objects the very same ones.
import { expect, test } from "bun:test";
import { pack, unpack } from "../src/model/packed-value";

class Pen {
  fg = 0;
  bg = 0;
  extended = new Ext();
  clone(): Pen {
    return Object.assign(new Pen(), this, { extended: Object.assign(new Ext(), this.extended) });
  }
}
class Ext {
  constructor(
    public ext = 0,
    public urlId = 0,
  ) {}
}
class Store {
  constructor(readonly limit: number) {}
}

test("a packed value unpacks to an equal one: plain data copied, shared parts shared, pens remade, a store kept", () => {
  const link = { uri: "https://example.invalid/", id: "a" };
  const pen = new Pen();
  pen.fg = 0x1000009;
  pen.extended = new Ext(3, 7);
  const store = new Store(2000);
  const value = {
    words: Uint32Array.from([1, 2, 3]),
    rows: [{ tabs: [8, 16], title: "t", none: undefined, wrapped: true }],
    palette: new Map([[1, "#ff0000"]]),
    links: { withId: [["k", link, 1]], byId: [[1, link]] },
    pen,
    store,
  };
  const packed = pack(value);
  const back = unpack(packed);
  expect(back).toEqual(value);
  expect(back.words).toBeInstanceOf(Uint32Array);
  expect(back.words).not.toBe(value.words);
  expect(back.palette.get(1)).toBe("#ff0000");
  expect(back.links.withId[0]![1]).toBe(back.links.byId[0]![1]);
  expect(back.pen).toBeInstanceOf(Pen);
  expect(back.pen).not.toBe(pen);
  expect(back.pen.extended).toBeInstanceOf(Ext);
  expect(back.pen.clone().extended.urlId).toBe(7);
  expect(back.store).toBe(store);
  expect("none" in back.rows[0]!).toBe(true);
  // Each unpack is a value of its own: changing one leaves the next as it was.
  back.rows[0]!.tabs.push(24);
  expect(unpack(packed).rows[0]!.tabs).toEqual([8, 16]);
});
