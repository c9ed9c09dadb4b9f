// The bus isolates its listeners: one that throws is logged, and neither the listeners after it nor
// the change that raised the event see the failure (a broken feature must not stop the model); a
// listener added with onFirst (the attached clients' frames) hears before the rest.
import { expect, test } from "bun:test";
import { EventBus } from "../src/model/events";

test("a listener that throws stops neither the listeners after it nor the emitter", () => {
  const bus = new EventBus();
  const got: string[] = [];
  bus.on((e) => got.push(`first ${e.type}`));
  bus.on(() => {
    throw new Error("test: a broken listener");
  });
  bus.on((e) => got.push(`last ${e.type}`));
  expect(() => bus.emit({ type: "pane_bell", pane: 1 })).not.toThrow();
  expect(() => bus.emit({ type: "pane_input", pane: 1 })).not.toThrow();
  expect(got).toEqual(["first pane_bell", "last pane_bell", "first pane_input", "last pane_input"]);
});

test("a listener added with onFirst hears each event before every other, whenever it was added, and can leave", () => {
  const bus = new EventBus();
  const got: string[] = [];
  bus.on((e) => got.push(`on ${e.type}`));
  const off = bus.onFirst((e) => {
    got.push(`first ${e.type}`);
    throw new Error("test: a broken first listener");
  });
  bus.on((e) => got.push(`later ${e.type}`));
  bus.emit({ type: "pane_bell", pane: 1 });
  expect(got).toEqual(["first pane_bell", "on pane_bell", "later pane_bell"]);
  off();
  got.length = 0;
  bus.emit({ type: "pane_bell", pane: 1 });
  expect(got).toEqual(["on pane_bell", "later pane_bell"]);
});
