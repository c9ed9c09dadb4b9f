// The Session in-process, over fake panes (SessionOptions.createPane: real Panes and emulators on a
// fake PTY): building, splitting, zooming, closing and restoring tabs, with the geometry and the
// look-ups checked against the panes' sizes. No program runs; each test takes milliseconds.
import { test, expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "../src/model/session";
import { Pane, type PaneSpec } from "../src/model/pane";
import type { Pty, PtyOptions } from "../src/model/pty";
import type { ModelEvent } from "../src/model/events";
import { leaf } from "../src/model/layout";
import { WsError } from "../src/protocol/errors";
import { waitFor } from "./harness";

/** A PTY with no program: it records what the pane does to it; `output` plays the program. */
class FakePty implements Pty {
  readonly canPause = true;
  readonly writes: string[] = [];
  readonly signals: string[] = [];
  size: { cols: number; rows: number };
  closed = false;
  readonly exited: Promise<number | null>;
  private end!: (code: number | null) => void;
  constructor(
    readonly opts: PtyOptions,
    readonly pid: number,
  ) {
    this.size = { cols: opts.cols, rows: opts.rows };
    this.exited = new Promise((resolve) => (this.end = resolve));
  }
  output(text: string): void {
    this.opts.onData(Buffer.from(text));
  }
  write(data: string | Uint8Array): void {
    this.writes.push(typeof data === "string" ? data : Buffer.from(data).toString());
  }
  resize(cols: number, rows: number): void {
    this.size = { cols, rows };
  }
  pause(): void {}
  resume(): void {}
  kill(signal: NodeJS.Signals = "SIGHUP"): void {
    this.signals.push(signal);
    this.exit(null, signal);
  }
  close(): void {
    this.closed = true;
    this.end(null);
  }
  exit(code: number | null, signal: string | null): void {
    this.opts.onExit(code, signal);
    this.end(code);
  }
}

function fakeSession(): { s: Session; pty: (id: number) => FakePty; created: Map<number, Pane>; events: ModelEvent[]; specs: PaneSpec[]; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "ws-session-model-"));
  const ptys = new Map<number, FakePty>();
  const specs: PaneSpec[] = [];
  // Every pane made, by id, including ones a build has started but not yet put in the model.
  const created = new Map<number, Pane>();
  const s = new Session({
    socketPath: join(dir, "ws.sock"),
    baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, SHELL: "/bin/sh", WS_SHELL_INTEGRATION: "0" },
    onEmpty() {},
    createPane: (spec) => {
      // A leaf asking for FAIL_START plays a program that can't start.
      if (spec.env.FAIL_START) throw new Error("no such program (fake)");
      specs.push(spec);
      const pane = new Pane(spec, (o) => {
        const p = new FakePty(o, 100_000 + spec.id);
        ptys.set(spec.id, p);
        return p;
      });
      created.set(spec.id, pane);
      return pane;
    },
  });
  const events: ModelEvent[] = [];
  s.bus.on((e) => {
    if (e.type !== "pane_output") events.push(e);
  });
  return { s, pty: (id) => ptys.get(id)!, created, events, specs, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every pane of the session is sized to its cell (its fake PTY too), as the geometry says. */
function expectSizedToCells(s: Session): void {
  for (const ws of s.workspaces)
    for (const tab of ws.tabs)
      for (const r of s.rects(tab)) {
        const pane = s.pane(r.pane);
        expect({ pane: r.pane, cols: pane.cols, rows: pane.rows }).toEqual({ pane: r.pane, cols: r.cols, rows: r.rows });
      }
}

const cat = { argv: ["cat"], cwd: "/tmp" };

test("a workspace's first pane fills the layout area; a split shares it; zoom fills it again; close gives it back", () => {
  const { s, pty, events, done } = fakeSession();
  try {
    s.setClientSize(100, 30);
    expect(s.layoutArea()).toEqual({ x: 0, y: 1, cols: 100, rows: 28 });
    const ws = s.newWorkspace("main", cat);
    const tab = s.activeTab(ws);
    expect(s.rects(tab)).toEqual([{ pane: 1, x: 0, y: 1, cols: 100, rows: 28 }]);
    expect(pty(1).size).toEqual({ cols: 100, rows: 28 });

    const p2 = s.split(1, { ...cat, right: true, focus: true, size: 30 });
    expect(p2.id).toBe(2);
    // The new pane starts at its final size; the separator takes one column.
    expect(pty(2).opts.cols).toBe(30);
    expect(s.pane(1).cols + 1 + s.pane(2).cols).toBe(100);
    expect(tab.focused).toBe(2);
    expectSizedToCells(s);

    const p3 = s.split(1, { ...cat, right: false, focus: false });
    expect(s.rects(tab).map((r) => r.pane).sort()).toEqual([1, 2, p3.id]);
    expectSizedToCells(s);

    expect(s.zoom(p3.id, "on")).toBe(true);
    expect(s.rects(tab)).toEqual([{ pane: p3.id, x: 0, y: 1, cols: 100, rows: 28 }]);
    expect(pty(p3.id).size).toEqual({ cols: 100, rows: 28 });
    expect(tab.focused).toBe(p3.id);
    expect(s.zoom(p3.id, "on")).toBe(false);
    s.focusPane(1); // focusing another pane unzooms
    expect(tab.zoomed).toBeUndefined();
    expectSizedToCells(s);

    events.length = 0;
    s.closePane(2);
    expect(pty(2).signals).toEqual(["SIGHUP"]);
    expect(pty(2).closed).toBe(true);
    expect(s.panes.has(2)).toBe(false);
    expect(events.map((e) => e.type)).toEqual(["pane_closed", "layout_changed"]);
    s.closePane(p3.id);
    expect(tab.layout).toEqual(leaf(1));
    expect(pty(1).size).toEqual({ cols: 100, rows: 28 });
    expect(() => s.closePane(1)).toThrow("can't close the last pane");
    s.setClientSize(60, 20);
    expect(pty(1).size).toEqual({ cols: 60, rows: 18 });
  } finally {
    done();
  }
});

test("look-ups find workspaces, tabs and panes by name, id and number, and say what there is when they don't", () => {
  const { s, done } = fakeSession();
  try {
    const main = s.newWorkspace("Main", cat);
    const { tab: logs, pane: lp } = s.newTab(main, { ...cat, name: "logs" });
    const other = s.newWorkspace("other", cat);
    const p = s.split(lp.id, { ...cat, right: true, focus: false });

    expect(s.workspace("main")).toBe(main); // ignoring case
    expect(s.findWorkspace("nope")).toBeUndefined();
    expect(() => s.workspace("nope")).toThrow('no workspace "nope"');
    expect(s.where(p.id)).toEqual({ ws: main, tab: logs });
    expect(s.locate(p.id).tab).toBe(logs);
    expect(s.where(999)).toBeUndefined();
    const missing = (() => {
      try {
        s.locate(999);
      } catch (e) {
        return e;
      }
    })();
    expect(missing).toBeInstanceOf(WsError);
    expect((missing as WsError).code).toBe("pane_not_found");
    expect(s.tabById(logs.id)).toEqual({ ws: main, tab: logs });
    expect(() => s.tabById(999)).toThrow("no tab 999");
    expect(s.findTab(main, "LOGS")).toBe(logs);
    expect(s.findTab(main, "2")).toBe(logs);
    expect(s.findTab(main, "1")).toBe(main.tabs[0]!);
    expect(() => s.findTab(main, "3")).toThrow('no tab "3" in workspace "Main"');
    expect(s.tabName(main.tabs[0]!)).toBe("cat"); // no name: its focused pane's label
    expect(s.resolveTab({ pane: p.id }).tab).toBe(logs);
    expect(s.resolveTab({}).ws).toBe(main); // the one on screen: a new workspace doesn't take it
    s.focusWorkspace(other);
    expect(s.resolveTab({})).toEqual({ ws: other, tab: other.tabs[0]! });
  } finally {
    done();
  }
});

test("a saved tab is rebuilt with new ids at its cells, its focus, zoom, names and titles; paced, it yields once per pane", async () => {
  const { s, pty, done } = fakeSession();
  try {
    s.setClientSize(80, 24);
    const ws = s.newWorkspace("main", cat);
    const saved = { kind: "split" as const, dir: "right" as const, ratio: 0.5, a: leaf(7), b: leaf(9) };
    const spec = { name: "restored", layout: saved, panes: new Map([[7, { ...cat, name: "build" }], [9, { ...cat, title: "old title" }]]), focused: 9, zoomed: 9 };
    const { tab, ids } = s.restoreTab(ws, spec);
    expect([...ids]).toEqual([[7, 2], [9, 3]]);
    expect(tab.focused).toBe(3);
    expect(tab.zoomed).toBe(3);
    expect(s.pane(2).label).toBe("build");
    expect(s.pane(3).title).toBe("old title");
    expect(s.tabName(tab)).toBe("restored");
    expect(pty(3).size).toEqual({ cols: 80, rows: 22 }); // zoomed: the whole area
    expectSizedToCells(s);

    let paces = 0;
    const built = await s.restoreTabPaced(ws, { ...spec, name: "" , zoomed: undefined }, async () => {
      paces++;
    });
    expect(paces).toBe(2);
    expect([...built.ids.values()]).toEqual([4, 5]);
    expect(built.tab.name).toBeUndefined(); // an empty saved name is none
    expectSizedToCells(s);
  } finally {
    done();
  }
});

test("a leaf whose program ends while a paced build starts the others is kept and says so, or goes", async () => {
  const { s, pty, created, events, done } = fakeSession();
  try {
    const ws = s.newWorkspace("main", cat);
    const tree = { type: "split" as const, direction: "right" as const, ratio: 0.5, first: { type: "pane" as const, command: ["cat"], cwd: "/tmp", keep: true }, second: { type: "pane" as const, command: ["cat"], cwd: "/tmp" } };
    // The first leaf's program prints and exits before the second starts (a pace comes before each).
    let ended = false;
    const tab = await s.applyTreePaced(ws, tree, { focus: true }, async () => {
      if (pty(2) && !ended) {
        ended = true;
        pty(2).output("left\r\n");
        pty(2).exit(5, null);
        await waitFor("the exit to be parsed", () => created.get(2)!.exited);
        expect(s.panes.has(2)).toBe(false); // not in the model yet
      }
    });
    expect(s.pane(2).exitText).toBe("status 5");
    await waitFor("the exit line", () => s.pane(2).readText().join("\n").includes("[exited: status 5]"));
    expect(events).toContainEqual({ type: "pane_exited", pane: 2, exit_code: 5, signal: null });
    expect(s.where(2)?.tab).toBe(tab);

    // Without keep, a program that ran past its first seconds would close its pane; one that failed
    // at once is held (tmux remain-on-exit failed): either way the model hears of it.
    const plain = { ...tree, first: { ...tree.first, keep: false } };
    ended = false;
    await s.applyTreePaced(ws, plain, { focus: true }, async () => {
      if (pty(4) && !ended) {
        ended = true;
        pty(4).exit(1, null);
        await waitFor("the exit to be parsed", () => created.get(4)!.exited);
      }
    });
    expect(events).toContainEqual({ type: "pane_exited", pane: 4, exit_code: 1, signal: null });
  } finally {
    done();
  }
});

test("a tree whose program can't start builds nothing: the panes started are stopped and their ids given back", async () => {
  const { s, pty, events, done } = fakeSession();
  try {
    const ws = s.newWorkspace("main", cat);
    const tree = { type: "split" as const, direction: "right" as const, ratio: 0.5, first: { type: "pane" as const, command: ["cat"], cwd: "/tmp" }, second: { type: "pane" as const, command: ["cat"], cwd: "/tmp", env: { FAIL_START: "1" } } };
    events.length = 0;
    expect(() => s.applyTree(ws, tree, { focus: true })).toThrow("no such program (fake)");
    expect(pty(2).signals).toEqual(["SIGHUP"]); // the first leaf had started
    expect(ws.tabs.length).toBe(1);
    expect([...s.panes.keys()]).toEqual([1]);
    expect(events).toEqual([]);
    // Paced, the same; and when the workspace closes mid-build.
    await expect(s.applyTreePaced(ws, tree, { focus: true }, async () => {})).rejects.toThrow("no such program (fake)");
    expect([...s.panes.keys()]).toEqual([1]);
    const ok = { ...tree, second: tree.first };
    const tab = await s.applyTreePaced(ws, ok, { name: "two", focus: true }, async () => {});
    expect(s.rects(tab).map((r) => r.pane)).toEqual([2, 3]); // the failed builds' ids were given back
    expect(s.activeTab(ws)).toBe(tab);
    expectSizedToCells(s);

    const other = s.newWorkspace("other", cat);
    let n = 0;
    const closing = s.applyTreePaced(other, ok, { focus: false }, async () => {
      if (++n === 2) s.closeWorkspace(other);
    });
    await expect(closing).rejects.toThrow('workspace "other" has closed');
    expect(s.workspaces).toEqual([ws]);
    expect([...s.panes.keys()].sort()).toEqual([1, 2, 3]);
  } finally {
    done();
  }
});

test("a tree in a new workspace whose program can't start makes no workspace and says nothing", () => {
  const { s, pty, events, done } = fakeSession();
  try {
    const ws = s.newWorkspace("main", cat);
    const good = { type: "pane" as const, command: ["cat"], cwd: "/tmp" };
    const tree = { type: "split" as const, direction: "right" as const, ratio: 0.5, first: good, second: { ...good, env: { FAIL_START: "1" } } };
    events.length = 0;
    expect(() => s.applyTreeInNewWorkspace("task", tree, { focus: true })).toThrow("no such program (fake)");
    expect(pty(2).signals).toEqual(["SIGHUP"]); // the first leaf had started
    expect(s.workspaces).toEqual([ws]);
    expect([...s.panes.keys()]).toEqual([1]);
    expect(events).toEqual([]);
    // Built whole, the workspace is said once, before its tab, and keeps the id the failure left.
    const made = s.applyTreeInNewWorkspace("task", { ...tree, second: good }, { focus: true });
    expect(events.map((e) => e.type).slice(0, 2)).toEqual(["workspace_created", "tab_created"]);
    expect(made.ws.id).toBe(3); // the failed request's id was not given back, but nothing saw it
    expect(s.currentWorkspace).toBe(made.ws);
    expect(() => s.applyTreeInNewWorkspace("task", tree, { focus: true })).toThrow('there is a workspace "task" already');
  } finally {
    done();
  }
});

test("a pane's title comes from its program's output, its name wins over it, and a look at its foreground owns it", async () => {
  const { s, pty, events, done } = fakeSession();
  try {
    s.newWorkspace("main", cat);
    pty(1).output("\x1b]2;from the program\x07");
    await waitFor("the title", () => s.pane(1).title === "from the program");
    expect(s.pane(1).label).toBe("from the program");
    s.renamePane(1, "mine");
    expect(s.pane(1).label).toBe("mine");
    expect(events.at(-1)).toMatchObject({ type: "pane_renamed", pane: 1, label: "mine", name: "mine" });
    s.renamePane(1, "");
    s.setForeground(1, { pid: 4242, name: "vim" });
    expect(s.pane(1).foregroundPid).toBe(4242);
    expect(s.pane(1).titleOwner).toBe(4242); // the title is the foreground program's now
    expect(s.pane(1).label).toBe("from the program");
  } finally {
    done();
  }
});

test("a restore keeps the saved ids it was promised; new ids go above them, and a failed build gives its ids back", () => {
  const { s, done } = fakeSession();
  try {
    const ws = s.newWorkspace("main", cat); // pane 1, tab 1, workspace 1
    s.promiseIds({ pane: [1, 5], tab: [9], workspace: [] }, { pane: 7 });
    expect(s.nextIds).toEqual({ pane: 7, tab: 10, workspace: 2 }); // 1 was issued already: not promised
    const { tab, ids } = s.restoreTab(ws, { id: 9, layout: { kind: "split", dir: "right", ratio: 0.5, a: leaf(5), b: leaf(1) }, panes: new Map([[5, cat], [1, cat]]), focused: 5 });
    expect([...ids]).toEqual([[5, 5], [1, 7]]);
    expect(tab.id).toBe(9);
    s.forgetPromisedIds();
    const bad = { type: "pane" as const, command: ["cat"], cwd: "/tmp", env: { FAIL_START: "1" } };
    expect(() => s.applyTree(ws, bad, { focus: false })).toThrow("no such program (fake)");
    expect(s.nextIds.pane).toBe(8);
    expect(s.split(7, { ...cat, right: true, focus: false }).id).toBe(8);
  } finally {
    done();
  }
});
