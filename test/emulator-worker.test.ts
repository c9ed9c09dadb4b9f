// The emulator worker (src/model/emulator-worker.ts, WS_EMULATOR=worker): the screen the main
// thread mirrors, and every synchronous read, answer exactly what the same emulator in this thread
// does; through the daemon, a flood is parsed whole and in order, and the daemon keeps answering
// requests while a pane floods.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Emulator } from "../src/model/emulator";
import { WorkerEmulator } from "../src/model/emulator-client";
import type { PaneEmulator } from "../src/model/pane-emulator";
import { Grid } from "../src/ui/grid";
import { TestServer, waitFor } from "./harness";
import type { Replies } from "./replies";
import { SCROLLBACK_DEFAULT } from "../src/model/pane";

const enc = new TextEncoder();

/** Everything a reader can see of a screen. */
function look(s: PaneEmulator, scrollBack = 0) {
  const g = new Grid(s.cols, s.rows);
  s.render(g, 0, 0, s.cols, s.rows, scrollBack);
  return {
    cells: { chars: g.chars.join("|"), width: [...g.width], fg: [...g.fg], bg: [...g.bg], attrs: [...g.attrs] },
    cursor: [s.cursorX, s.cursorY, s.baseY, s.alt, s.normalCursorX],
    modes: s.modes,
    shell: { seen: s.shell.seen, state: s.shell.state, prompts: s.shell.prompts, command: s.shell.command, ready: s.shell.promptReadiness(false) },
    visible: s.readPane({ source: "visible", styled: true }),
    recent: s.sourceRows("recent-unwrapped"),
    lines: s.lines(0, s.baseY + s.rows),
    find: [s.find("line 3", { line: s.baseY + s.rows, x: 0 }, false), s.find("wide", { line: 0, x: 0 }, true), s.find("absent", { line: 0, x: 0 }, true)],
    cellRows: s.cellRows(0, s.baseY + s.rows),
    text: s.captureText(true),
  };
}

describe("the worker's screen", () => {
  const local = new Emulator({ cols: 30, rows: 8, scrollback: 50 });
  const remote = new WorkerEmulator({ cols: 30, rows: 8, scrollback: 50 });
  let parsed = 0;
  remote.onParsed = (n) => (parsed += n);
  const titles: string[] = [];
  const marks: string[] = [];
  remote.onTitle = (t) => titles.push(t);
  const localMarks: string[] = [];
  for (const [sh, into] of [[remote.shell, marks], [local.shell, localMarks]] as const) {
    sh.onStarted = (c) => into.push(`started ${c}`);
    sh.onFinished = (d) => into.push(`finished ${d.command} ${d.exitCode} ${JSON.stringify(d.output())}`);
  }
  let sent = 0;
  const feed = async (text: string) => {
    const bytes = enc.encode(text);
    local.parse(bytes);
    remote.send!(enc.encode(text));
    sent += bytes.length;
    await waitFor("the worker to parse", () => parsed >= sent);
  };
  afterAll(() => {
    local.dispose();
    remote.dispose();
  });

  test("mirrors cells, cursor, modes and marks, and reads the same text", async () => {
    let text = "\x1b]0;the title\x07\x1b]133;A\x07$ \x1b]133;B\x07echo hi\r\n\x1b]133;C\x07";
    for (let i = 0; i < 40; i++) text += `line ${i} \x1b[1;3${i % 8}mcolour\x1b[0m \x1b[48;2;1;2;3mrgb\x1b[0m\r\n`;
    text += "wide: 你好世界 end\r\n\x1b]133;D;3\x07\x1b]133;A\x07$ \x1b]133;B\x07";
    text += "a long line that wraps around the thirty columns of this screen\r\n";
    text += "\x1b[?2004h\x1b[?1h\x1b[?1000h\x1b[?1006h\x1b[?25l\x1b[5 q\x1b[>1u";
    await feed(text);
    expect(look(remote)).toEqual(look(local));
    expect(titles).toEqual(["the title"]);
    expect(marks).toEqual(localMarks);
    expect(marks[0]).toBe("started echo hi");
    expect(marks[1]).toStartWith('finished echo hi 3 {"text":"line 0 colour rgb\\nline 1');
    // Copy mode's view of the history comes from the worker on request.
    expect(look(remote, 12).cells).toEqual(look(local, 12).cells);
  });

  test("the alternate screen, a resize and a reset", async () => {
    await feed("\x1b[?1049h\x1b[2J\x1b[Hfull screen\x1b[10;5Hthere");
    expect(look(remote)).toEqual(look(local));
    local.resize(24, 6);
    remote.resize(24, 6);
    await waitFor("the resize to show", () => remote.cols === 24 && remote.rows === 6);
    await feed("\x1b[?1049lback\x1bc after reset");
    expect(look(remote)).toEqual(look(local));
  });
});

describe("through the daemon", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await new TestServer({ env: { WS_EMULATOR: "worker" } }).start();
  });
  afterAll(() => s.stop());

  test("a flood is parsed whole and in order", async () => {
    const N = 300_000;
    const pane: number = (await s.request<Replies["split"]>({ v: 2, type: "split", pane: (await s.list())[0]!.tabs[0]!.panes[0], right: true, focus: false, cwd: "/tmp", command: ["sh", "-c", `seq 1 ${N}; echo FLOOD-DONE; exec cat`] })).pane;
    await s.waitScreen(pane, "FLOOD-DONE", 60_000);
    const r = await s.v6({ type: "pane_read", pane, source: "recent" });
    const lines: string[] = r.text.split("\n");
    const end = lines.indexOf("FLOOD-DONE");
    expect(end).toBeGreaterThanOrEqual(SCROLLBACK_DEFAULT);
    const nums = lines.slice(0, end).filter((l) => /^\d+$/.test(l)).map(Number);
    // The history holds the flood's last lines, each one after the one before, up to the last.
    expect(nums.length).toBeGreaterThanOrEqual(SCROLLBACK_DEFAULT);
    expect(nums[nums.length - 1]).toBe(N);
    for (let i = 1; i < nums.length; i++) if (nums[i] !== nums[i - 1]! + 1) throw new Error(`line ${nums[i - 1]} followed by ${nums[i]}`);
  }, 90_000);

  test("the daemon keeps answering while a pane floods", async () => {
    const first = (await s.list())[0]!.tabs[0]!.panes[0];
    const flood = (await s.request<Replies["split"]>({ v: 2, type: "split", pane: first, right: false, focus: false, cwd: "/tmp", command: ["yes"] })).pane;
    await s.waitScreen(flood, /^y$/m);
    const marker = (await s.request<Replies["split"]>({ v: 2, type: "split", pane: first, right: true, focus: false, cwd: "/tmp", command: ["sh", "-c", "read x; echo got-$x; exec cat"] })).pane;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const info = await s.v6({ type: "pane_info", pane: flood });
      expect(info.pane).toBe(flood);
      // Generous: a loaded machine, not a speed test (bench/flood-echo.ts measures).
      expect(performance.now() - t0).toBeLessThan(5000);
    }
    await s.v6({ type: "pane_send", pane: marker, text: "ok\r" });
    await s.waitScreen(marker, "got-ok", 10_000);
    await s.v6({ type: "pane_close", pane: flood });
  }, 60_000);
});
