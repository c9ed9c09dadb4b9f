// One part of the daemon that throws ends nothing else. Faults are set off inside a real daemon
// (src/server/test-faults.ts, present only with WS_TEST_FAULTS=1): a bus listener that throws, a
// parser whose piece or whose sliceDone throws, a rejected promise nobody awaits, a timer that
// throws. After each, every pane still prints, parses a flood and takes input; the error is in the
// log with its stack; an error nothing caught saves the session.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Conn, readUntil, useServer, waitFor } from "./harness";
import { FAULT_TITLE } from "../src/server/test-faults";
import { decode } from "../src/features/persistence/format";

const s = useServer({ env: { WS_TEST_FAULTS: "1" } });
const logPath = () => join(s.env.XDG_STATE_HOME!, "ws", "default.log");
const savePath = () => join(s.env.XDG_STATE_HOME!, "ws", "default.session");
const log = () => (existsSync(logPath()) ? readFileSync(logPath(), "utf8") : "");

let panes: number[] = [];
let round = 0;

async function setUpPanes(): Promise<number[]> {
  if (panes.length) return panes;
  const first = (await s.list())[0]!.tabs[0]!.panes[0]!;
  const second = (await s.call({ type: "split", pane: first, cwd: s.root, command: ["bash", "--norc", "--noprofile"], focus: false })).pane;
  const other = (await s.call({ type: "tab_new", name: "other", cwd: s.root, command: ["bash", "--norc", "--noprofile"] })).pane;
  panes = [first, second, other];
  return panes;
}

/** Every pane takes input and echoes it, and parses a flood to its end (through the slices). */
async function everyPaneWorks(): Promise<void> {
  round++;
  for (const pane of await setUpPanes()) {
    // The typed line reads alive_R_""P: only the echo's output reads alive_R_P.
    expect(await s.v6({ type: "pane_send", pane, text: `clear; seq -f 'flood %g' 1 30000; echo alive_${round}_""${pane}`, enter: true })).toMatchObject({ type: "ok" });
    await s.waitScreen(pane, "flood 30000", 30_000);
    await s.waitScreen(pane, `alive_${round}_${pane}`, 30_000);
  }
}

async function setOff(body: string): Promise<void> {
  const r = await s.v6({ type: "notify", title: FAULT_TITLE, body });
  // The fault's own request is answered as if nothing happened: the throw stopped at its boundary.
  expect(r).toMatchObject({ type: "notified" });
}

test("a bus listener that throws stops neither the change, nor the other listeners, nor any pane", async () => {
  await everyPaneWorks();
  const sub = await Conn.open(s.sock);
  try {
    sub.send({ v: 6, id: "sub", type: "subscribe", types: ["notification"] });
    expect(await sub.nextJson()).toMatchObject({ type: "subscribed" });
    await setOff("listener");
    // The event log's listener comes after the one that threw, and still got the event.
    const seen = await readUntil(sub, (e) => e.event === "notification");
    expect(seen.at(-1)).toMatchObject({ title: FAULT_TITLE, body: "listener" });
  } finally {
    sub.close();
  }
  await waitFor("the listener's error in the log, with its stack", () => /test fault: a bus listener threw[^]*\n\s+at /.test(log()));
  await everyPaneWorks();
});

test("a parser whose piece throws takes no slice from the panes; one whose sliceDone throws ends nothing", async () => {
  await setOff("parse-piece");
  // Each pane's flood is parsed in the slices the broken parser would otherwise take first.
  await everyPaneWorks();
  await setOff("slice-done");
  await everyPaneWorks();
  await waitFor("both parser errors in the log", () => log().includes("test fault: a parser's piece threw") && log().includes("test fault: a parser's sliceDone threw"));
});

test("a rejected promise and a throwing timer are logged with their stacks, the session is saved, and ws serves on", async () => {
  await setUpPanes();
  await waitFor("a first background save", () => existsSync(savePath()), 10_000);
  const pid = s.daemonPid()!;
  const savedBefore = decode(readFileSync(savePath())).header.saved_at;
  const mtimeBefore = statSync(savePath()).mtimeMs;
  // A notification is no model change: only the last resort saves after this.
  await setOff("rejection");
  await waitFor("the rejection in the log with its stack", () => /unhandled promise rejection; ws serves on[^]*test fault: a promise nobody awaited was rejected[^]*\n\s+at /.test(log()));
  await waitFor("a save after the fault", () => statSync(savePath()).mtimeMs > mtimeBefore && decode(readFileSync(savePath())).header.saved_at !== savedBefore, 10_000);
  await setOff("timer");
  await waitFor("the timer's throw in the log with its stack", () => /uncaught exception; ws serves on[^]*test fault: a timer threw[^]*\n\s+at /.test(log()));
  expect(s.daemonPid()).toBe(pid);
  await everyPaneWorks();
  expect((await s.list()).flatMap((w) => w.tabs.flatMap((t) => t.panes)).sort()).toEqual([...panes].sort());
});
