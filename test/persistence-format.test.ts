// The save format (checks, versions, the v1 fixture every later ws must still read), the text
// capture from xterm's buffer, and a save → restore round trip on an in-process session with real
// PTYs (zoom, focus, sizes, new ids).
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Terminal } from "@xterm/headless";
import { MAX_PROMPT_CHARS, MAX_QUEUED_PER_AGENT } from "../src/features/agents/queue";
import { checkBody, decode, decodeHeader, encode, encodeChunks, FORMAT_VERSION, MIGRATIONS, type SaveBody, type ProblemKind, type SavedPrompt, type SaveProblem } from "../src/features/persistence/format";
import type { PersistenceService } from "../src/features/persistence/service";
import type { CheckpointPolicy } from "../src/features/workstreams/workstream";
import { Snapshotter } from "../src/features/persistence/snapshot";
import { captureText, disposeText, terminalText, terminalTextPublic, type TextState } from "../src/model/text-capture";
import { applySave, preface } from "../src/features/persistence/restore";
import { Session } from "../src/model/session";
import { paneBaseEnv } from "../src/model/launch";
import { panesOf } from "../src/model/layout";
import { waitFor } from "./harness";

const FIXTURE = join(import.meta.dir, "fixtures", "session-v1.session");
const meta = { ws: "test", server: "default", savedAt: new Date("2026-12-01T12:00:00Z") };

function sample(): SaveBody {
  return decode(readFileSync(FIXTURE)).body;
}

describe("save format", () => {
  test("the v1 fixture still reads, whole, in the current format", () => {
    const { header, body } = decode(readFileSync(FIXTURE));
    expect(header.version).toBe(1);
    expect(header).toMatchObject({ workspaces: 2, tabs: 3, panes: 5 });
    expect(body.workspaces.map((w) => w.name)).toEqual(["main", "Games"]);
    const tetris = body.workspaces[1]!.tabs[1]!;
    expect(tetris).toMatchObject({ name: "Tetris", project: "tetris", focused: 4, zoomed: 4 });
    expect(tetris.panes[1]!.scrollback).toContain("日本語 😀");
    expect(tetris.panes[1]!.env).toEqual({ WS_WORKSTREAM: "pr-101" });
  });

  test("workstreams round trip; a bad one is left out with a note, the rest kept", () => {
    const body: SaveBody = { ...sample(), workstreams: [{ name: "pr-101", repo: "/code/app", dir: "/wt/app/pr-101", branch: "fix", pr: 101 }, { name: "rv", repo: "/r", dir: "/d", branch: "b", review: true }] };
    expect(decode(encode(body, meta)).body.workstreams).toEqual(body.workstreams);
    const bad = { ...body, workstreams: [...body.workstreams!, { name: "x\u001b[2J", repo: "/r", dir: "/d", branch: "b" }, { name: "y", repo: "/r", dir: "/d", branch: "b", pr: "7" }, { name: "pr-101", repo: "/r", dir: "/d", branch: "b" }] };
    const read = decode(encode(bad as SaveBody, meta));
    expect(read.body.workstreams).toEqual(body.workstreams);
    expect(read.skipped.length).toBe(3);
    expect(read.skipped[0]).toStartWith("workstream 3 left out: its name \"x\\u001b[2J\" holds the control character U+001B");
    expect(read.skipped.slice(1)).toEqual(["workstream 4 left out: pr is not a number", "workstream 5 left out: its name appears twice"]);
    // A template's [checkpoints] policy round trips; a bad one is dropped with a note, the workstream kept.
    const policy: SaveBody = { ...sample(), workstreams: [{ name: "cp", repo: "/r", dir: "/d", branch: "b", checkpoints: { keep: 2, max_age_days: 7 } }] };
    expect(decode(encode(policy, meta)).body.workstreams).toEqual(policy.workstreams);
    for (const checkpoints of [{ keep: 0, max_age_days: 7 }, { keep: 2 }, { keep: 2, max_age_days: 100_001 }, "keep=2", { keep: 1.5, max_age_days: 7 }]) {
      const r = decode(encode({ ...sample(), workstreams: [{ name: "cp", repo: "/r", dir: "/d", branch: "b", checkpoints: checkpoints as unknown as CheckpointPolicy }] }, meta));
      expect(r.body.workstreams).toEqual([{ name: "cp", repo: "/r", dir: "/d", branch: "b" }]);
      expect(r.skipped).toEqual(['workstream 1 ("cp"): its checkpoints policy is not keep and max_age_days from 1 to 100000; using the defaults']);
    }
    // A save from before workstreams has none.
    expect(decode(encode(sample(), meta)).body.workstreams).toBeUndefined();
  });

  test("a pane's queued prompts round trip; bad entries are dropped with a note, the rest kept in order", () => {
    const body = sample();
    const pane = body.workspaces[0]!.tabs[0]!.panes[0]!;
    pane.prompts = [{ text: "first", when: "idle", at: 1 }, { text: "second\nline", when: "done", at: 2 }];
    expect(decode(encode(body, meta)).body.workspaces[0]!.tabs[0]!.panes[0]!.prompts).toEqual(pane.prompts);
    pane.prompts = [
      { text: "first", when: "idle", at: 1 },
      { text: "soon", when: "later", at: 2 },
      { text: 7, when: "idle", at: 3 },
      { text: "x".repeat(MAX_PROMPT_CHARS + 1), when: "idle", at: 4 },
      { text: "last", when: "done", at: 5 },
    ] as unknown as SavedPrompt[]; // bad entries on purpose
    const r = decode(encode(body, meta));
    expect(r.body.workspaces[0]!.tabs[0]!.panes[0]!.prompts).toEqual([{ text: "first", when: "idle", at: 1 }, { text: "last", when: "done", at: 5 }]);
    expect(r.skipped.join("\n")).toContain("3 of its queued prompts were not valid; dropped");
    // Past the per-agent limit: the first ones are kept. Not a list: none.
    pane.prompts = Array.from({ length: MAX_QUEUED_PER_AGENT + 3 }, (_, i) => ({ text: `p${i}`, when: "idle" as const, at: i }));
    expect(decode(encode(body, meta)).body.workspaces[0]!.tabs[0]!.panes[0]!.prompts!.map((p) => p.text)).toEqual(pane.prompts.slice(0, MAX_QUEUED_PER_AGENT).map((p) => p.text));
    pane.prompts = "first" as unknown as SavedPrompt[]; // not a list, on purpose
    expect(decode(encode(body, meta)).body.workspaces[0]!.tabs[0]!.panes[0]!.prompts).toBeUndefined();
  });

  test("every older format has an upgrade step", () => {
    for (let v = 1; v < FORMAT_VERSION; v++) expect(typeof MIGRATIONS[v]).toBe("function");
  });

  test("encode and decode round trip; chunked encoding is the same bytes", () => {
    const body = sample();
    const bytes = encode(body, meta);
    expect(decode(bytes).body).toEqual(body);
    expect(Buffer.concat(encodeChunks(body, meta, (t) => Buffer.from(JSON.stringify(t)))).equals(Buffer.from(bytes))).toBe(true);
    // Scrollback that looks like the placeholder or JSON stays text.
    body.workspaces[0]!.tabs[0]!.panes[0]!.scrollback = '"\\u0000ws-scrollback\\u0000" {"a":1}\n\u0007';
    expect(decode(encode(body, meta)).body).toEqual(body);
  });

  const kinds: [string, (b: Buffer) => Uint8Array, ProblemKind, RegExp][] = [
    ["empty", () => new Uint8Array(), "truncated", /empty/],
    ["cut in the header", (b) => b.subarray(0, 40), "truncated", /inside its header/],
    ["cut in the body", (b) => b.subarray(0, b.length - 100), "truncated", /cut short/],
    ["one byte changed", (b) => { const c = Buffer.from(b); c[c.length - 30]! ^= 1; return c; }, "corrupt", /checksum/],
    ["bytes added", (b) => Buffer.concat([b, Buffer.from("{}\n")]), "corrupt", /more than its header/],
    ["not a save", () => Buffer.from("hello\nworld\n"), "corrupt", /header is not JSON/],
    ["another format", () => Buffer.from('{"format":"other","version":1}\n{}\n'), "corrupt", /not a ws-session file/],
    ["a newer version", (b) => { const nl = b.indexOf(10); const h = JSON.parse(b.subarray(0, nl).toString()); h.version = FORMAT_VERSION + 1; h.ws = "9.9.9 (x)"; return Buffer.concat([Buffer.from(JSON.stringify(h)), b.subarray(nl)]); }, "newer", /newer ws \(9\.9\.9 \(x\)\) in save format 2/],
  ];
  for (const [what, damage, kind, message] of kinds)
    test(`refuses a save ${what} (${kind})`, () => {
      const bytes = damage(readFileSync(FIXTURE));
      let err: SaveProblem | undefined;
      try {
        decode(bytes);
      } catch (e) {
        err = e as SaveProblem;
      }
      expect(err?.kind).toBe(kind);
      expect(err?.message).toMatch(message);
    });

  test("the header alone is enough for info and doctor", () => {
    const { header } = decodeHeader(readFileSync(FIXTURE).subarray(0, 400));
    expect(header.panes).toBe(5);
  });

  test("structure checks name what is wrong", () => {
    const b = (): SaveBody => structuredClone(sample());
    const tab = (x: SaveBody, w: number, t: number) => x.workspaces[w]!.tabs[t]!;
    // The sample's tab 1 of workspace 1 is a split whose second half is a split: its layout is
    // reached through `unknown` to break it; a command of numbers is out of type on purpose.
    const split = (x: SaveBody) => tab(x, 1, 1).layout as unknown as { ratio: number; b: { b: { pane: number } } };
    const cases: [string, (x: SaveBody) => void, RegExp][] = [
      ["layout names a missing pane", (x) => (split(x).b.b.pane = 99), /layout and the pane list disagree/],
      ["focus outside the tab", (x) => (tab(x, 1, 1).focused = 1), /focused pane is not in the tab/],
      ["zoom outside the tab", (x) => (tab(x, 1, 1).zoomed = 2), /zoomed pane/],
      ["ratio out of range", (x) => (split(x).ratio = 1.5), /ratio/],
      ["two workspaces of one name", (x) => (x.workspaces[1]!.name = "MAIN"), /appears twice/],
      ["active tab out of range", (x) => (x.workspaces[0]!.active = 3), /active tab/],
      ["current out of range", (x) => (x.current = 2), /current workspace/],
      ["a tabless workspace", (x) => (x.workspaces[0]!.tabs = []), /no tabs/],
      ["command not strings", (x) => (tab(x, 0, 0).panes[0]!.command = [1] as unknown as string[]), /command/],
    ];
    expect(checkBody(b())).toBeUndefined();
    for (const [, change, msg] of cases) {
      const x = b();
      change(x);
      expect(checkBody(x)).toMatch(msg);
    }
  });

  test("a restored pane's preface: old text, then one marker line", () => {
    const p = sample().workspaces[0]!.tabs[0]!.panes[0]!;
    const text = preface(p, "2026-12-01T12:00:00Z");
    expect(text.startsWith("$ echo hello\r\nhello\r\n$ \r\n")).toBe(true);
    expect(text).toMatch(/── restored \(saved 2026-12-0\d \d\d:\d\d:\d\d\) ──\x1b\[0m\r\n$/);
  });
});

describe("text capture", () => {
  test("the fast path reads exactly what xterm's public API does", async () => {
    const term = new Terminal({ cols: 20, rows: 5, scrollback: 100, allowProposedApi: true });
    const input = "plain\r\n\x1b[1;31mbold red\x1b[0m  \r\nhéllo wörld 😀 wide 日本語 e\u0301 and a long line that wraps around twenty columns\r\n\r\n\ttab\r\nlast";
    await new Promise<void>((r) => term.write(input, r));
    const text = terminalText(term);
    expect(text).toBe(terminalTextPublic(term));
    expect(text.split("\n")[2]).toContain("and a long line that wraps around twenty columns");
    expect(text.endsWith("last")).toBe(true);
    term.dispose();
  });

  test("taking only new rows gives exactly the whole text, through trims, wraps, clears and resizes", async () => {
    const term = new Terminal({ cols: 12, rows: 4, scrollback: 40, allowProposedApi: true });
    const write = (d: string) => new Promise<void>((r) => term.write(d, r));
    let state: TextState | undefined;
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const words = ["a", "wörd", "日本語", "😀", "e\u0301", "longer-token", "\x1b[31mred\x1b[0m", "   "];
    for (let step = 0; step < 400; step++) {
      const k = rnd(100);
      if (k < 70) {
        let line = "";
        for (let w = rnd(6); w >= 0; w--) line += words[rnd(words.length)] + (rnd(3) ? " " : "");
        await write(`${step}:${line}${rnd(4) ? "\r\n" : ""}`);
      } else if (k < 75) await write("\x1b[2J\x1b[H");
      else if (k < 77) await write("\x1b[3J");
      else if (k < 80) term.resize(8 + rnd(10), 3 + rnd(4));
      else if (k < 82) term.clear();
      else if (k < 85) await write("\x1b[?1049halt screen\x1b[?1049l");
      else if (k < 88) await write("\x1b[2;3Hover\x1b[K");
      else await write("x".repeat(rnd(40)) + "\r\n");
      const r = captureText(term, state);
      state = r.state;
      expect(r.text).toBe(terminalTextPublic(term));
    }
    disposeText(state);
    term.dispose();
  }, 30_000);

  test("the normal screen is taken, not a full-screen program's alternate one", async () => {
    const term = new Terminal({ cols: 20, rows: 5, scrollback: 100, allowProposedApi: true });
    await new Promise<void>((r) => term.write("history line\r\n\x1b[?1049hFULLSCREEN", r));
    expect(terminalText(term)).toContain("history line");
    expect(terminalText(term)).not.toContain("FULLSCREEN");
    term.dispose();
  });
});

describe("save → restore on a live session", () => {
  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.killAll("SIGKILL");
  });
  const make = () => {
    const s = new Session({ socketPath: "/tmp/ws-unit.sock", baseEnv: paneBaseEnv({ ...process.env, SHELL: "/bin/sh" }), onEmpty() {} });
    sessions.push(s);
    return s;
  };

  test("layout, sizes, zoom, focus and names come back; ids are new and mapped", async () => {
    const a = make();
    a.setClientSize(132, 43);
    const ws = a.newWorkspace("main", { cwd: "/tmp", argv: ["cat"] });
    const p2 = a.split(1, { right: true, focus: false, size: 40, argv: ["cat"], cwd: "/" });
    const p3 = a.split(p2.id, { right: false, focus: true, size: 9, argv: [], cwd: "/tmp", env: { WS_WORKSTREAM: "pr-7" } });
    const { tab: t2 } = a.newTab(ws, { name: "Logs", project: "app", argv: ["cat"], cwd: "/tmp" });
    const other = a.newWorkspace("other", { cwd: "/", argv: ["cat"] });
    const tab = a.activeTab(ws);
    a.zoom(p3.id, "on");
    a.focusTab(ws, t2);
    a.focusWorkspace(other);
    a.pane(1).write("typed into cat\n");
    await waitFor("cat's echo", () => a.pane(1).readText().join("\n").includes("typed into cat"));
    a.pane(1).write("\x1b]2;my title\x07\n"); // cat writes it back: its program set the title
    await waitFor("the title", () => a.pane(1).title === "my title");
    const body = await new Snapshotter(a).capture({ fresh: true });
    expect(checkBody(body)).toBeUndefined();
    const saved = decode(encode(body, meta)).body;

    const b = make();
    b.newWorkspace("main", { cwd: "/", argv: ["cat"] }); // a live server restoring: tabs join "main"
    const fresh = make();
    const r = await applySave(fresh, saved);
    expect(r).toMatchObject({ workspaces: 2, tabs: 3, panes: 5 });
    expect(fresh.size).toEqual({ cols: 132, rows: 43 });
    expect(fresh.current).toBe(1);
    const fws = fresh.workspaces[0]!;
    expect(fws.active).toBe(1);
    const ftab = fws.tabs[0]!;
    expect(ftab.zoomed).toBe(r.ids.get(p3.id));
    expect(ftab.focused).toBe(r.ids.get(p3.id)!);
    expect(fws.tabs[1]).toMatchObject({ name: "Logs", project: "app" });
    // Same rectangles (zoomed and not) as before, for the mapped panes.
    const rectsOf = (s: Session, t: typeof tab, map = (id: number) => id) =>
      s.rects(t).map((x) => ({ ...x, pane: map(x.pane) }));
    expect(rectsOf(fresh, ftab)).toEqual(rectsOf(a, tab, (id) => r.ids.get(id)!));
    ftab.zoomed = undefined;
    tab.zoomed = undefined;
    fresh.relayout(ftab);
    a.relayout(tab);
    expect(rectsOf(fresh, ftab)).toEqual(rectsOf(a, tab, (id) => r.ids.get(id)!));
    for (const id of panesOf(ftab.layout)) {
      const p = fresh.pane(id);
      expect(p.env.WS_PANE_ID).toBe(String(id));
      const rect = fresh.rects(ftab).find((x) => x.pane === id)!;
      expect([p.cols, p.rows]).toEqual([rect.cols, rect.rows]);
    }
    const np3 = fresh.pane(r.ids.get(p3.id)!);
    expect(np3.command).toEqual([]);
    expect(np3.env.WS_WORKSTREAM).toBe("pr-7");
    const np1 = fresh.pane(r.ids.get(1)!);
    expect(np1.title).toBe("my title");
    await np1.flushed();
    expect(np1.readText({ scrollback: true }).join("\n")).toMatch(/typed into cat[\s\S]*── restored/);

    // Into a live session: saved tabs join the workspace of the same name.
    const r2 = await applySave(b, saved);
    expect(b.workspaces.map((w) => [w.name, w.tabs.length])).toEqual([["main", 3], ["other", 1]]);
    expect(b.currentWorkspace.name).toBe("other");
    expect(r2.panes).toBe(5);
  }, 30_000);

  test("a command that can't start any more gets a shell and says why", async () => {
    const s = make();
    const body = sample();
    body.workspaces = [body.workspaces[0]!];
    body.current = 0;
    body.workspaces[0]!.tabs[0]!.panes[0]!.command = ["/nonexistent/program", "--flag"];
    await applySave(s, body);
    const p = s.pane(1);
    expect(p.argv).toEqual(["/bin/sh"]);
    await p.flushed();
    expect(p.readText({ scrollback: true }).join("\n")).toContain('could not restart ["/nonexistent/program","--flag"]');
  }, 30_000);
});

describe("the save queue", () => {
  /** A session with one `cat` pane and its persistence service saving into a temporary
   * directory; `started` counts (with their times) the saves that begin. */
  async function withService(opts: { debounceMs?: number; scrollbackMs?: number }, body: (t: { s: Session; svc: PersistenceService; dir: string; started: number[] }) => Promise<void>) {
    const { PersistenceService } = await import("../src/features/persistence/service");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "ws-save-queue-"));
    const s = new Session({ socketPath: "/tmp/ws-unit.sock", baseEnv: paneBaseEnv({ ...process.env, SHELL: "/bin/sh" }), onEmpty() {} });
    s.newWorkspace("main", { cwd: "/tmp", argv: ["cat"] });
    const quiet = { info() {}, warn() {}, error() {} };
    const svc = new PersistenceService(s, { path: join(dir, "default.session"), server: "default", ws: "test", log: quiet, ...opts });
    const started: number[] = [];
    // writeOnce is private: reached through `unknown` to count the saves that begin.
    const seam = svc as unknown as { writeOnce(o: { fresh?: boolean; full?: boolean }): Promise<unknown> };
    const orig = seam.writeOnce.bind(svc);
    seam.writeOnce = (o) => (started.push(performance.now()), orig(o));
    try {
      await body({ s, svc, dir, started });
    } finally {
      svc.stop();
      await s.killAll("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }

  test("a save of output waits while someone types, and comes once they stop", async () => {
    // Output is saved every 100 ms here (10 s in the daemon).
    await withService({ debounceMs: 0, scrollbackMs: 100 }, async ({ s, svc, started }) => {
      svc.start();
      await waitFor("the fresh server's first save", () => started.length === 1);
      const pane = [...s.panes.values()][0]!;
      // Typing (cat's terminal echoes it: output) for 1.6 s, a key every 50 ms: the output is due
      // every 100 ms, and not one save may start meanwhile.
      const typingFrom = performance.now();
      let lastKey = 0;
      while (performance.now() - typingFrom < 1600) {
        // Timed before the write, as the server times it (the write may wait a moment for the echo).
        lastKey = performance.now();
        pane.write("x");
        await Bun.sleep(50);
      }
      expect(started.length).toBe(1);
      await waitFor("the save of the typed output", () => started.length === 2);
      // It came after the typing stopped, once a second had passed without a key.
      expect(started[1]! - lastKey).toBeGreaterThanOrEqual(990);
      expect(pane.readText().join("")).toContain("xxxxxxxxxx");
    });
  }, 30_000);

  test("calls during a save share one more save after it, and all of them finish", async () => {
    await withService({}, async ({ svc, dir, started }) => {
      const first = svc.save();
      const during = [svc.save(), svc.save({ fresh: true }), svc.save()];
      const results = await Promise.race([Promise.all([first, ...during]), Bun.sleep(10_000).then(() => "stuck")]);
      expect(results).not.toBe("stuck");
      expect(started.length).toBe(2);
      expect((results as ({ panes: number } | undefined)[]).every((r) => r?.panes === 1)).toBe(true);
      expect(decode(readFileSync(join(dir, "default.session"))).body.workspaces[0]!.name).toBe("main");
    });
  }, 30_000);
});

test("each feature keeps its own save section: persistence knows no feature's shape, and no feature the save's", () => {
  const features = join(import.meta.dir, "..", "src", "features");
  const importsOf = (file: string) => [...readFileSync(join(features, file), "utf8").matchAll(/from "(\.[^"]+)"/g)].map((m) => m[1]!);
  // Only sections.ts, which composes the sections, names the features that declare them.
  for (const file of ["persistence/validate.ts", "persistence/format.ts"]) expect(importsOf(file).filter((s) => /^\.\.\/(agents|grants|approvals|workstreams)\//.test(s)).filter((s) => !s.endsWith("/saved")), file).toEqual([]);
  expect(importsOf("persistence/validate.ts").some((s) => s.startsWith("../agents"))).toBe(false);
  for (const file of ["agents/queue.ts", "agents/service.ts"]) expect(importsOf(file).filter((s) => s.includes("persistence/format")), file).toEqual([]);
});
