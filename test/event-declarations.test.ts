// Events are declared once, with their fields (model/events.ts, features/*/events.ts): the event
// log publishes exactly the declared fields, describe and the docs list them, and persistence asks
// each event whether it changes what a save holds. A real Session, event log and persistence
// service; no panes are needed.
import { test, expect } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "../src/model/session";
import { EventLog } from "../src/features/event-log";
import { BUS_EVENTS, PUBLISHED } from "../src/features/events";
import { PersistenceService } from "../src/features/persistence/service";
import { catalogue } from "../src/messages/catalogue";
import { ROOT } from "./harness";

function session(): { s: Session; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "ws-events-"));
  const s = new Session({
    socketPath: join(dir, "ws.sock"),
    baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, SHELL: "/bin/sh" },
    onEmpty() {},
    createPane: () => {
      throw new Error("no panes in this test");
    },
  });
  return { s, dir };
}

const quiet = { info() {}, warn() {}, error() {} };
/** One turn of the timer queue: a 0 ms timer set before this one has fired. */
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

test("typing into a pane schedules no save; a change to the model does", async () => {
  const { s, dir } = session();
  const svc = new PersistenceService(s, { path: join(dir, "session.save"), server: "test", ws: "test", log: quiet, debounceMs: 0, maxDelayMs: 0, scrollbackMs: 3_600_000 });
  let saves = 0;
  svc.save = () => {
    saves++;
    return Promise.resolve(undefined);
  };
  svc.start();
  try {
    s.bus.emit({ type: "pane_input", pane: 1 });
    await turn();
    expect(saves).toBe(0);
    // A title a program sets is saved with the next change; a name the person gives, at once.
    s.bus.emit({ type: "pane_renamed", pane: 1, title: "vim", label: "vim" });
    await turn();
    expect(saves).toBe(0);
    s.bus.emit({ type: "pane_renamed", pane: 1, title: "vim", label: "editor", name: "editor" });
    await turn();
    expect(saves).toBe(1);
    s.bus.emit({ type: "layout_changed", workspace: "main", tab: 1 });
    await turn();
    expect(saves).toBe(2);
  } finally {
    svc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the event log publishes a bus event under its declared name with exactly its declared fields", () => {
  const { s, dir } = session();
  const log = new EventLog(s, s.bus, "boot");
  try {
    // command_finished's `result` is declared internal: never on the wire.
    s.bus.emit({ type: "command_finished", pane: 9, exit_code: 0, command: "make", result: { command: "make", exitCode: 0, output: () => ({ text: "", truncated: false }) } });
    s.bus.emit({ type: "agent_status", pane: 9, status: "done", before: "working" });
    s.bus.emit({ type: "agent_report", pane: 9, status: "done" }); // internal: not published
    const lines = [...log.since(0)].map((e) => JSON.parse(e.line) as Record<string, unknown>);
    expect(lines.map((l) => l.event)).toEqual(["command_finished", "agent_status_changed"]);
    const { v: _v, type: _t, event: _e, seq: _s, boot_id: _b, time: _time, ...fields } = lines[0]!;
    expect(fields).toEqual({ pane: 9, command: "make", exit_code: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every published event is in describe's catalogue and the docs, with its fields", () => {
  const cat = catalogue();
  const docs = readFileSync(join(ROOT, "docs", "protocol-reference.md"), "utf8");
  expect(cat.events.map((e) => e.type)).toEqual(PUBLISHED.map((e) => e.type));
  for (const e of PUBLISHED) {
    const listed = cat.events.find((c) => c.type === e.type)!;
    expect(listed.fields.map((f) => f.name)).toEqual(Object.keys(e.fields));
    expect(docs).toContain(`### \`${e.type}\``);
  }
  // A bus event's declaration names whether it is published, and whether it calls for a save.
  for (const [type, d] of Object.entries(BUS_EVENTS)) {
    expect(typeof d.description, type).toBe("string");
    expect(d.saves === true || d.saves === false || typeof d.saves === "object", type).toBe(true);
  }
  expect(cat.events.find((e) => e.type === "agent_status_changed")!.fields.map((f) => f.name)).toEqual(["pane", "status", "before", "detail", "workspace", "tab"]);
});
