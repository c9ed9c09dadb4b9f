import { expect, test } from "bun:test";
import { useServer } from "./harness";
import type { Replies } from "./replies";

const s = useServer();

test("a new server holds workspace main with one shell tab in pane 1", async () => {
  const wss = await s.list();
  expect(wss).toEqual([{ name: "main", current: true, tabs: [{ name: "bash", panes: [1], active: true }] }]);
});

test("a split runs a real command whose output is read back from the pane", async () => {
  const r = await s.request<Replies["split"]>({ v: 1, type: "split", pane: 1, right: false, cwd: "/tmp", command: ["sh", "-c", "echo split-says-$((6*7)); pwd; exec cat"], focus: false });
  expect(r.type).toBe("pane");
  // pwd's line follows the echo's: wait for both in order (the second may arrive a moment later).
  const text = await s.waitScreen(r.pane, /split-says-42\s+\/tmp\b/);
  expect(text).toContain("split-says-42");
});
