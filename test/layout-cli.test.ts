// ws pane resize|zoom|swap and ws layout export|apply: the CLI for what only `ws call` reached,
// end to end against a real daemon.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer } from "./harness";

let s: TestServer;
let left: number;
let right: number;
beforeAll(async () => {
  s = await new TestServer().start();
  left = Number((await s.ok(["tab", "new", "--name", "work", "--", "cat"])).trim());
  right = Number((await s.ok(["split", String(left), "--", "cat"])).trim());
});
afterAll(() => s.stop());

const layout = async () => JSON.parse(await s.ok(["--json", "layout", "export", "--pane", String(left)]));

test("ws pane resize moves the split; ws pane zoom toggles; ws pane swap trades places", async () => {
  const before = (await layout()).root.ratio;
  expect(await s.ok(["pane", "resize", String(left), "right", "6"])).toBe("");
  expect((await layout()).root.ratio).toBeGreaterThan(before);
  const r = JSON.parse(await s.ok(["--json", "pane", "resize", String(left), "left"]));
  expect(r).toMatchObject({ type: "layout", changed: true });

  await s.ok(["pane", "zoom", String(right)]);
  expect((await layout()).zoomed).toBe(right);
  // Inside a pane, PANE is the pane it runs in.
  await s.ok(["pane", "zoom", "", "off"], { env: { WS_PANE_ID: String(right) } });
  expect((await layout()).zoomed).toBeNull();

  expect((await layout()).panes).toEqual([left, right]);
  await s.ok(["pane", "swap", String(left), String(right)]);
  expect((await layout()).panes).toEqual([right, left]);

  // A bad argument is a usage error (exit 2), wherever it is found (docs/cli.md's table).
  const bad = await s.run(["pane", "resize", String(left), "sideways"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("sideways");
});

test("ws layout export prints the tree; ws layout apply builds it again from a file or stdin", async () => {
  const printed = await s.ok(["layout", "export", "--pane", String(left)]);
  const tree = JSON.parse(printed);
  expect(tree).toMatchObject({ type: "split", direction: "right", first: { type: "pane" }, second: { type: "pane" } });
  const file = join(s.root, "tree.json");
  writeFileSync(file, printed);
  const fromFile = JSON.parse(await s.ok(["--json", "layout", "apply", file, "--name", "again"]));
  expect(fromFile).toMatchObject({ type: "layout", root: { type: "split", direction: "right", ratio: tree.ratio } });
  expect(fromFile.panes).toHaveLength(2);
  const fromStdin = JSON.parse(await s.ok(["--json", "layout", "apply", "-", "--name", "piped"], { stdin: printed }));
  expect(fromStdin.panes).toHaveLength(2);
  const names = (await s.list())[0]!.tabs.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(["work", "again", "piped"]));

  const missing = await s.run(["layout", "apply", join(s.root, "nope.json")]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("can't read");
  const notJson = await s.run(["layout", "apply", "-"], { stdin: "{not json" });
  expect(notJson.code).toBe(1);
  expect(notJson.stderr).toContain("stdin is not JSON");
  const badTree = await s.run(["layout", "apply", "-"], { stdin: '{"type":"split"}' });
  expect(badTree.code).toBe(2);
  expect((await s.run(["layout", "apply"])).code).toBe(2);
});
