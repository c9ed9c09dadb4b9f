// What an attach client or a save file sends can't kill, brick or bloat the server:
// every EVENT is checked against crossterm's shapes and ranges, sizes are clamped, a bad attach
// size is refused, and a save is checked value by value at start. Real daemon, real socket.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, processAlive, rssKb, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { checkTermEvent, type TermEvent } from "../src/protocol/events";
import { InputParser } from "../src/protocol/input-parser";
import { decode, encode, type SaveBody } from "../src/features/persistence/format";
import type { Layout } from "../src/model/layout";
import { MAX_COLS, MAX_ROWS } from "../src/model/client-size";
import { MAX_LAYOUT_DEPTH } from "../src/features/persistence/validate";
import { MAX_SAVE_BYTES } from "../src/features/persistence/service";
import { encodeFrame, FRAME_EVENT } from "../src/protocol/frames";

// ---- the validator --------------------------------------------------------------------------

describe("EVENT validator", () => {
  test("accepts crossterm's shapes (spec/attach-events.md) and rebuilds them canonically", () => {
    const ok: [unknown, TermEvent][] = [
      [{ Key: { code: { Char: "a" }, modifiers: "", kind: "Press", state: "" } }, { Key: { code: { Char: "a" }, modifiers: "", kind: "Press", state: "" } }],
      [{ Key: { code: "Left", modifiers: "SHIFT | ALT", kind: "Press", state: "" } }, { Key: { code: "Left", modifiers: "SHIFT | ALT", kind: "Press", state: "" } }],
      // Older writers: "NONE", no kind or state, flags in any order or as hex bits.
      [{ Key: { code: { F: 5 }, modifiers: "NONE" } }, { Key: { code: { F: 5 }, modifiers: "", kind: "Press", state: "" } }],
      [{ Key: { code: { Char: "😀" }, modifiers: "ALT|SHIFT", kind: "Repeat", state: "KEYPAD" } }, { Key: { code: { Char: "😀" }, modifiers: "SHIFT | ALT", kind: "Repeat", state: "KEYPAD" } }],
      [{ Key: { code: { Media: "PlayPause" }, modifiers: "0x2", kind: "Release", state: "" } }, { Key: { code: { Media: "PlayPause" }, modifiers: "CONTROL", kind: "Release", state: "" } }],
      [{ Mouse: { kind: { Down: "Left" }, column: 10, row: 3, modifiers: "" } }, { Mouse: { kind: { Down: "Left" }, column: 10, row: 3, modifiers: "" } }],
      [{ Mouse: { kind: "ScrollUp", column: 65535, row: 0, modifiers: "CONTROL", extra: 1 } }, { Mouse: { kind: "ScrollUp", column: 65535, row: 0, modifiers: "CONTROL" } }],
      [{ Paste: "text pasted" }, { Paste: "text pasted" }],
      [{ Resize: [120, 40] }, { Resize: [120, 40] }],
      [{ Resize: [65535, 0] }, { Resize: [65535, 0] }],
      ["FocusGained", "FocusGained"],
      ["FocusLost", "FocusLost"],
    ];
    for (const [input, want] of ok) expect(checkTermEvent(input)).toEqual({ event: want });
  });

  test("everything the attach client's input parser makes passes", () => {
    const bytes = "aA中\x00\x01\r\t\x7f\x1bx\x1b[A\x1b[1;4D\x1bOP\x1b[15~\x1b[24;2~\x1b[97;5u\x1b[57428u\x1b[57441;2u\x1b[<0;10;3M\x1b[<0;10;3m\x1b[<64;1;1M\x1b[<35;5;5M\x1b[200~pasted\x1b[201~\x1b[I\x1b[O\x1b[Z";
    const events = [...new InputParser().feed(bytes), ...new InputParser().flush()];
    expect(events.length).toBeGreaterThan(20);
    for (const ev of events) expect(checkTermEvent(JSON.parse(JSON.stringify(ev)))).toEqual({ event: ev });
  });

  test("refuses wrong types and out-of-range values, naming the problem", () => {
    const bad: [unknown, RegExp][] = [
      // The reproductions.
      [{ Resize: ["a", null] }, /Resize .* is not two u16/],
      [{ Resize: [{}, []] }, /Resize/],
      [{ Resize: [1e308, 5] }, /Resize/],
      [{ Resize: [100000, 100000] }, /Resize/],
      [{ Resize: [-1, 5] }, /Resize/],
      [{ Resize: [1.5, 5] }, /Resize/],
      [{ Resize: [1, 2, 3] }, /Resize/],
      [{ Resize: "80x24" }, /Resize/],
      [{ Key: 5 }, /Key is not an object/],
      [{ Key: { code: { Char: "ab" }, modifiers: "" } }, /Char is not one character/],
      [{ Key: { code: { Char: "" }, modifiers: "" } }, /Char/],
      [{ Key: { code: { Char: "\ud800" }, modifiers: "" } }, /Char/],
      [{ Key: { code: { F: 256 }, modifiers: "" } }, /F is not a u8/],
      [{ Key: { code: { F: -1 }, modifiers: "" } }, /F is not a u8/],
      [{ Key: { code: "Launch", modifiers: "" } }, /unknown key code/],
      [{ Key: { code: { Char: "a", F: 1 }, modifiers: "" } }, /unknown key code/],
      [{ Key: { code: { Media: "Eject" }, modifiers: "" } }, /media key/],
      [{ Key: { code: { Modifier: 3 }, modifiers: "" } }, /modifier key/],
      [{ Key: { code: "Up", modifiers: "BOGUS" } }, /unknown modifiers flag/],
      [{ Key: { code: "Up", modifiers: 3 } }, /modifiers is not a string/],
      [{ Key: { code: "Up", modifiers: "", kind: "Hold" } }, /key kind/],
      [{ Key: { code: "Up", modifiers: "", state: ["KEYPAD"] } }, /state/],
      [{ Mouse: { kind: { Down: "Fourth" }, column: 1, row: 1, modifiers: "" } }, /mouse button/],
      [{ Mouse: { kind: "Wiggle", column: 1, row: 1, modifiers: "" } }, /mouse kind/],
      [{ Mouse: { kind: "Moved", column: 70000, row: 1, modifiers: "" } }, /mouse position/],
      [{ Mouse: { kind: "Moved", column: 1, row: "1", modifiers: "" } }, /mouse position/],
      [{ Mouse: null }, /Mouse is not an object/],
      [{ Paste: 5 }, /Paste is not a string/],
      [{ Paste: "a", Resize: [1, 1] }, /not an event/],
      [null, /not an event/],
      [42, /not an event/],
      [[1, 2], /not an event/],
    ];
    for (const [input, why] of bad) {
      const r = checkTermEvent(input);
      expect("problem" in r ? r.problem : "accepted").toMatch(why);
    }
    // A newer client's event is unknown, not wrong: ignored, as the spec says.
    expect(checkTermEvent({ Launch: "missiles" })).toMatchObject({ unknown: true });
    expect(checkTermEvent("FocusMaybe")).toMatchObject({ unknown: true });
  });

  test("what a problem quotes can't carry an escape sequence", () => {
    const r = checkTermEvent({ Key: { code: "Up", modifiers: "\x1b]0;x\x07\u009b2J" } }) as { problem: string };
    expect(r.problem).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });
});

// ---- the attach stream against the real daemon -----------------------------------------------

let s: TestServer;
let pid: number;
const log = () => readFileSync(join(s.env.XDG_STATE_HOME!, "ws", "default.log"), "utf8");

beforeAll(async () => {
  s = await new TestServer().start();
  pid = s.daemonPid()!;
  await s.request({ v: 1, type: "split", pane: 1, cwd: "/tmp", command: ["sh", "-c", "exec cat"], focus: false });
});
afterAll(() => s.stop());

/** The server answers, its panes are there and one of them still echoes. */
async function serverWorks(word: string) {
  expect(processAlive(pid)).toBe(true);
  const ws = await s.list();
  expect(ws.map((w) => w.name)).toEqual(["main"]);
  expect(await s.request({ v: 2, type: "pane_send", pane: 2, text: `${word}\n` })).toMatchObject({ type: "ok" });
  await s.waitScreen(2, word);
}

test("the issue's bad Resize events are dropped with a warning; the daemon, the client and others carry on", async () => {
  const before = rssKb(pid);
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 30 });
  await c.firstFrame();
  let size = 90;
  for (const bad of [["a", null], [{}, []], [1e308, 5], [100000, 100000]]) {
    c.send({ Resize: bad });
    // The same connection is still read and drawn for: a good resize right after gets its redraw.
    await c.redrawAfterResize(size++, 30);
    await serverWorks(`alive-${size}`);
  }
  expect(c.closed).toBe(false);
  // One warning each (the first few of a connection are logged one by one).
  await waitFor("the warnings in the log", () => (log().match(/event dropped: Resize/g) ?? []).length >= 3);
  expect(rssKb(pid) - before).toBeLessThan(100 * 1024);
  c.close();
});

test("a huge but well-formed size is clamped to the documented maximum", async () => {
  const before = rssKb(pid);
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 80, rows: 24 });
  await c.firstFrame();
  await c.redrawAfterResize(65535, 65535, 20000);
  const info = await s.v6({ type: "pane_info", pane: 1 });
  expect(info.cols).toBeLessThanOrEqual(MAX_COLS);
  expect(info.rows).toBeLessThanOrEqual(MAX_ROWS);
  expect(info.cols).toBeGreaterThan(MAX_COLS / 3);
  await serverWorks("clamped");
  expect(rssKb(pid) - before).toBeLessThan(300 * 1024);
  await c.redrawAfterResize(100, 30);
  c.close();
});

test("a frame whose length can't be right closes that connection only", async () => {
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 30 });
  await c.firstFrame();
  const header = new Uint8Array(5);
  header[0] = FRAME_EVENT;
  new DataView(header.buffer).setUint32(1, 0xffffffff);
  c.write(header);
  await waitFor("the server to close the connection", () => c.closed);
  await waitFor("the reason in the log", () => /attach client \d+: frame payload too large/.test(log()));
  await serverWorks("after-oversized");
  const next = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 30 });
  await next.firstFrame();
  await next.redrawAfterResize(101, 30);
  // An EVENT that is not JSON is one event dropped; the connection stays.
  next.write(encodeFrame(FRAME_EVENT, "{not json"));
  await next.redrawAfterResize(102, 30);
  expect(next.closed).toBe(false);
  next.close();
});

test("attach with cols 2147483647 is refused (invalid_params) and changes nothing", async () => {
  const before = await s.v6({ type: "pane_info", pane: 1 });
  const v1 = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 2147483647, rows: 1 });
  await waitFor("the refusal", () => v1.refusal.includes("\n"));
  expect(v1.refusal).toBe("error: invalid message: invalid value for `cols`: 2147483647, expected at most 65535\n");
  const v6 = await RawAttach.open(s.sock, { v: 6, type: "attach", cols: 2147483647, rows: 1 });
  await waitFor("the refusal", () => v6.refusal.includes("\n"));
  expect(JSON.parse(v6.refusal)).toMatchObject({ type: "error", code: "invalid_params", hint: { param: "cols" } });
  for (const bad of [-1, 1.5, "80", 65536]) {
    const r = await s.v6({ type: "attach", cols: 80, rows: bad });
    expect(r).toMatchObject({ type: "error", code: "invalid_params", hint: { param: "rows" } });
  }
  for (const open of [{ cwd: "/tmp", name: 5 }, { cwd: "/tmp", project: {} }, { cwd: 1 }, { cwd: "/tmp", command: "ls" }]) {
    const r = await s.v6({ type: "attach", cols: 80, rows: 24, open });
    expect(r).toMatchObject({ type: "error", code: "invalid_params", hint: { param: "open" } });
  }
  const after = await s.v6({ type: "pane_info", pane: 1 });
  expect({ cols: after.cols, rows: after.rows }).toEqual({ cols: before.cols, rows: before.rows });
  await serverWorks("refused");
});

test("the largest attach size is kept clamped through a save, and the next start restores", async () => {
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 65535, rows: 65535 });
  await c.firstFrame();
  expect(c.refusal).toBe("");
  await s.ok(["kill-server", "--keep"]);
  await waitFor("the daemon to exit", () => !processAlive(pid));
  const save = decode(readFileSync(join(s.env.XDG_STATE_HOME!, "ws", "default.session")));
  expect(save.body.size).toEqual({ cols: MAX_COLS, rows: MAX_ROWS });
  expect(save.skipped).toEqual([]);
  await s.ok(["start"]);
  pid = s.daemonPid()!;
  await serverWorks("restarted");
});

// ---- saves that a restore must not trust --------------------------------------------------------

describe("restoring a hand-made save", () => {
  const meta = { ws: "test", server: "default" };
  const pane = (id: number, command: unknown = ["sh", "-c", `echo restored-${id}; exec cat`]) => ({ id, command, argv: [], cwd: "/tmp", env: {}, scrollback: "" });
  const tab = (ids: number[], extra: Record<string, unknown> = {}) => ({
    layout: ids.length === 1 ? { kind: "pane", pane: ids[0] } : { kind: "split", dir: "right", ratio: 0.5, a: { kind: "pane", pane: ids[0] }, b: { kind: "pane", pane: ids[1] } },
    focused: ids[0],
    panes: ids.map((id) => pane(id)),
    ...extra,
  });
  const deep = (n: number): Layout => (n === 0 ? { kind: "pane", pane: 1 } : { kind: "split", dir: "right", ratio: 0.5, a: deep(n - 1), b: { kind: "pane", pane: 100 + n } });

  async function startWith(body: unknown, bytes?: Uint8Array) {
    const srv = new TestServer();
    const dir = join(srv.env.XDG_STATE_HOME!, "ws");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, "default.session"), bytes ?? encode(body as SaveBody, meta), { mode: 0o600 });
    const started = await srv.run(["start"]);
    return { srv, dir, started };
  }

  test("an absurd size is clamped and bad workspaces, tabs and panes are left out, with warnings", async () => {
    const mixed = tab([1, 2]);
    mixed.panes[1] = pane(2, [1]); // a command that is not strings: the pane goes, its tab stays
    const body = {
      size: { cols: 2147483647, rows: 1 },
      current: 7,
      workspaces: [
        { name: "main", active: 0, tabs: [tab([1]), tab([3], { layout: { kind: "split", dir: "right", ratio: 7, a: { kind: "pane", pane: 3 }, b: { kind: "pane", pane: 3 } } }), mixed] },
        { name: "evil\x1b]0;pwned\x07", active: 0, tabs: [tab([1])] },
        { name: "Deep", active: 0, tabs: [tab([1], { layout: deep(MAX_LAYOUT_DEPTH + 10) })] },
        { name: "MAIN", active: 0, tabs: [tab([1])] },
        { name: "x".repeat(300), active: 0, tabs: [tab([1])] },
        { name: "Named", active: 5, tabs: [tab([1], { name: "bad\ttab" }), tab([1], { name: "fine", focused: 99, zoomed: 42 })] },
      ],
    };
    const { srv, dir, started } = await startWith(body);
    try {
      expect(started.code).toBe(0);
      // Warnings name each part left out, and never carry the save's control characters.
      expect(started.stderr).toMatch(/screen size 2147483647×1 is out of range; using 1000×4/);
      expect(started.stderr).toMatch(/workspace "main" tab 2 left out: split ratio 7/);
      expect(started.stderr).toMatch(/workspace "main" tab 3 pane 2 left out: command/);
      expect(started.stderr).toMatch(/workspace 2 left out: its name .* holds the control character U\+001B/);
      expect(started.stderr).toMatch(`workspace "Deep" tab 1 left out: its layout is deeper than ${MAX_LAYOUT_DEPTH} splits`);
      expect(started.stderr).toMatch(/workspace 4 left out: the name "MAIN" appears twice/);
      expect(started.stderr).toMatch(/workspace 5 left out: its name .* is 300 characters long \(at most 128\)/);
      expect(started.stderr).toMatch(/workspace "Named" tab 1 left out: its name .* holds the control character U\+0009/);
      expect(started.stderr).toMatch(/tab 2: the focused pane is not in the tab/);
      expect(started.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
      const ws = await srv.list();
      expect(ws.map((w) => w.name)).toEqual(["main", "Named"]);
      expect(ws[0]!.tabs.length).toBe(2);
      expect(ws[1]!.tabs.length).toBe(1);
      // The kept panes run; the layout lost only the bad pane.
      const panes = ws.flatMap((w) => w.tabs.flatMap((t) => t.panes));
      expect(panes.length).toBe(3);
      for (const p of panes) await srv.waitScreen(p, /restored-\d/);
      const info = await srv.v6({ type: "pane_info", pane: panes[0] });
      expect(info.cols).toBeLessThanOrEqual(MAX_COLS);
      // The person sees it too, on the first attach.
      const c = await RawAttach.open(srv.sock, { v: 1, type: "attach", cols: 200, rows: 30 });
      await waitFor("the notice on screen", () => c.output.includes("saved session restored in part: screen size"));
      c.close();
      // A partial restore keeps the file where it is (nothing was set aside).
      expect(readdirSync(dir).filter((n) => n.includes("unreadable"))).toEqual([]);
    } finally {
      await srv.stop();
    }
  });

  test("a save nothing in which can be restored is set aside and ws starts clean", async () => {
    const body = { size: { cols: 80, rows: 24 }, current: 0, workspaces: [{ name: "\x00", active: 0, tabs: [tab([1])] }, { name: "ok", active: 0, tabs: [tab([1], { layout: { kind: "tree" } })] }] };
    const { srv, dir, started } = await startWith(body);
    try {
      expect(started.code).toBe(0);
      expect(started.stderr).toMatch(/could not be loaded: nothing in it can be restored/);
      expect((await srv.list()).map((w) => w.name)).toEqual(["main"]);
      const aside = readdirSync(dir).filter((n) => /^default\.session\.unreadable-[^.]+$/.test(n));
      expect(aside.length).toBe(1);
      expect(existsSync(join(dir, "default.session"))).toBe(false);
    } finally {
      await srv.stop();
    }
  });

  test("nothing from a bad save's header reaches the terminal raw", async () => {
    const body = Buffer.from("{}");
    const newer = JSON.stringify({ format: "ws-session", version: 99, ws: "\u001b]0;pwned\u0007\u009b2J", bytes: 2, sha256: "x" }) + "\n";
    for (const file of ["\x1b]0;pwned\x07\x9b2J{\n{}\n", newer + body + "\n"]) {
      const { srv, started } = await startWith(undefined, Buffer.from(file));
      try {
        expect(started.code).toBe(0);
        expect(started.stderr).toMatch(/could not be loaded/);
        expect(started.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
      } finally {
        await srv.stop();
      }
    }
  });

  test("a save file over the size limit is set aside unread", async () => {
    const srv = new TestServer();
    const dir = join(srv.env.XDG_STATE_HOME!, "ws");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, "default.session");
    writeFileSync(file, "", { mode: 0o600 });
    truncateSync(file, MAX_SAVE_BYTES + 1); // sparse: no disk used
    try {
      const started = await srv.run(["start"]);
      expect(started.code).toBe(0);
      expect(started.stderr).toMatch(/over the \d+ a save may be/);
      expect((await srv.list()).map((w) => w.name)).toEqual(["main"]);
      expect(existsSync(file)).toBe(false);
    } finally {
      await srv.stop();
    }
  });
});
