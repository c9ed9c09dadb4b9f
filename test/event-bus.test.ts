// The bus isolates its listeners: one that throws is logged, and neither the listeners after it nor
// the change that raised the event see the failure (a broken feature must not stop the model).
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
