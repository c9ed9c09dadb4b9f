// What a pane's program sends beyond its screen reaches the user's terminal as under tmux: the
// bell always (and an off-screen pane's bell marks its tab), OSC 52 and the title only when
// keys.toml says so, and the focused pane's cursor colour (OSC 12). Real daemons, real
// programs, the bytes an attach client receives.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { OuterTerminal } from "./outer-terminal";

/** The bytes without their OSC strings: what is left of a BEL is a bell. */
const withoutOsc = (s: string) => s.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "");

async function server(keys?: string): Promise<TestServer> {
  const s = new TestServer();
  if (keys !== undefined) s.writeKeys(keys);
  return s.start();
}

/** A pane in a new focused tab running `sh -c script; exec cat`. */
async function run(s: TestServer, script: string, focus = true): Promise<number> {
  return Number((await s.ok(["tab", "new", ...(focus ? ["--focus"] : []), "--", "sh", "-c", `${script}; exec cat`])).trim());
}

describe('with clipboard = "on" and titles = true', () => {
  let s: TestServer;
  let c: RawAttach;
  let outer: OuterTerminal;
  beforeAll(async () => {
    s = await server('clipboard = "on"\ntitles = true\n');
    c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 20 });
    outer = new OuterTerminal(c, 100, 20);
    await c.firstFrame();
  });
  afterAll(async () => {
    c.close();
    await s.stop();
  });

  test("the title stack is pushed on attach; the bell, OSC 52, the title and OSC 12 reach the user's terminal", async () => {
    expect(outer.bytes).toContain("\x1b[22;2t");
    const from = outer.bytes.length;
    const pane = await run(s, "printf '\\033]2;agent-title\\007\\033]52;c;aGVsbG8=\\007\\033]12;#ff0000\\007ready\\007'");
    await s.waitScreen(pane, "ready");
    await waitFor("the passthrough bytes", () => (outer.bytes.slice(from).includes("\x1b]12;#ff0000\x07") && outer.bytes.slice(from).includes("\x1b]2;agent-title\x07") ? true : undefined));
    const got = outer.bytes.slice(from);
    expect(got).toContain("\x1b]52;c;aGVsbG8=\x07");
    expect(withoutOsc(got)).toContain("\x07");
    // Back to the first tab: its pane has no cursor colour and its own title.
    const before = outer.bytes.length;
    await s.request({ v: 5, type: "pane_focus", pane: 1 });
    await waitFor("the cursor colour reset", () => (outer.bytes.slice(before).includes("\x1b]112\x07") ? true : undefined));
    const titles = [...outer.bytes.slice(before).matchAll(/\x1b\]2;([^\x07]*)\x07/g)].map((m) => m[1]);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles).not.toContain("agent-title");
  }, 60000);

  test("a bell from a tab not on screen marks that tab with ! until it is shown", async () => {
    // The bell rings once the new tab is in the tab bar (the program waits for a line until then).
    const pane = await run(s, "read _; printf 'rang\\007'", false);
    await waitFor("the new tab in the tab bar", async () => /\d:sh /.test((await outer.rows())[0]!));
    await s.request({ v: 2, type: "pane_send", pane, text: "", enter: true });
    await s.waitScreen(pane, "rang");
    const bar = await waitFor("the mark in the tab bar", async () => {
      const top = (await outer.rows())[0]!;
      return /\d:sh! /.test(top) ? top : undefined;
    });
    expect(bar).toMatch(/\d:sh! /);
    await s.request({ v: 5, type: "pane_focus", pane });
    await waitFor("the mark gone once the tab is shown", async () => (!(await outer.rows())[0]!.includes("!") ? true : undefined));
  }, 60000);
});

describe("by default", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await server();
  });
  afterAll(() => s.stop());

  test("OSC 52 and titles stay in ws; the bell and the cursor colour still pass", async () => {
    const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 20 });
    const outer = new OuterTerminal(c, 100, 20);
    await c.firstFrame();
    const pane = await run(s, "printf '\\033]2;agent-title\\007\\033]52;c;aGVsbG8=\\007\\033]12;blue\\007ready\\007'");
    await s.waitScreen(pane, "ready");
    await waitFor("the cursor colour", () => (outer.bytes.includes("\x1b]12;blue\x07") ? true : undefined));
    expect(withoutOsc(outer.bytes)).toContain("\x07");
    expect(outer.bytes).not.toContain("\x1b]52;");
    expect(outer.bytes).not.toContain("\x1b]2;");
    expect(outer.bytes).not.toContain("\x1b[22;2t");
    c.close();
  }, 60000);
});
