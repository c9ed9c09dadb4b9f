// Typing into a pane whose agent is `done` is the person attending to it: it turns `idle`, even
// when that pane was already on screen (no focus change to notice).
import { expect, test } from "bun:test";
import { useServer, waitFor } from "./harness";
import { encodeEvent } from "../src/protocol/frames";

const s = useServer();

const statusOf = async (pane: number) => ((await s.request({ v: 5, type: "dashboard" })).agents as { pane: number; status: string }[]).find((a) => a.pane === pane)?.status;

test("a key typed into a done agent's pane turns it idle", async () => {
  // The agent finished a turn in pane 1, the pane on screen.
  expect(await s.rawLine(JSON.stringify({ v: 1, type: "report", pane: 1, agent: "claude", event: "Stop", payload: { session_id: "t" } }) + "\n")).toBe("ok");
  await waitFor("pane 1 to be done", async () => (await statusOf(1)) === "done");
  // Attach and type one key, as a person at the terminal would.
  const sock = await s.connect();
  sock.write('{"v":1,"type":"attach","cols":100,"rows":30}\n');
  expect(await statusOf(1)).toBe("done"); // attaching alone does not count as reading it
  sock.write(encodeEvent({ Key: { code: { Char: "x" }, modifiers: "", kind: "Press", state: "" } }));
  await waitFor("pane 1 to be idle", async () => (await statusOf(1)) === "idle");
  sock.close();
});
