// Copy what you see: mouse drags, double-clicks and copy-mode searches over CJK, emoji and
// combining text copy the characters drawn in the cells chosen, and a line the terminal wrapped is
// copied (and read, searched and waited for) as the one line the program wrote. A real daemon, a
// real program in a real PTY, a raw attach client sending the mouse and keys a terminal would;
// the copy is read back from the OSC 52 the client receives, the screen from a terminal that
// replays the client's frames.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { useServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { OuterTerminal } from "./outer-terminal";

const s = useServer();
const COLS = 60;
let c: RawAttach;
let outer: OuterTerminal;
let pane: number;
let cols: number;

// e + U+0301 three times; a line that wraps early because 日 does not fit in the last column;
// a 97-character URL that wraps.
const URL = `https://example.com/${"x".repeat(40)}/${"y".repeat(36)}`;

beforeAll(async () => {
  c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: COLS, rows: 24 });
  outer = new OuterTerminal(c, COLS, 24);
  await c.firstFrame();
  pane = Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", "stty -echo; echo cat-ready; exec cat"])).trim());
  // Sent only once the tty's echo is off: lines typed before are echoed by the tty and then again
  // by cat, which clears the screen and redraws it under the test's feet.
  await s.waitScreen(pane, "cat-ready");
  cols = ((await s.request({ v: 6, type: "pane_info", pane })) as unknown as { cols: number }).cols;
  const lines = [
    "日本語テキスト target after",
    "✅ hello world",
    "e\u0301e\u0301e\u0301 word",
    `${"a".repeat(cols - 1)}日Z`,
    URL,
    "dup one",
    "dup two",
    "end-of-text",
  ];
  await s.request({ v: 2, type: "pane_send", pane, text: "\x1b[H\x1b[2J", enter: false });
  // cat writes back what it reads (the tty's echo is off): the lines come back as output.
  for (const l of lines) await s.request({ v: 2, type: "pane_send", pane, text: l, enter: true });
  await s.waitScreen(pane, /^end-of-text/m);
  await waitFor("the screen drawn", async () => (await outer.rows()).some((r) => r.startsWith("end-of-text")));
}, 30000);
afterAll(() => c.close());

/** The screen cell where `text` is drawn (its n-th occurrence on screen), by cells. */
async function cellOf(text: string, nth = 0): Promise<{ x: number; y: number }> {
  const rows = await outer.rows();
  let seen = 0;
  for (let y = 0; y < rows.length; y++) {
    const cells = await outer.cells(y);
    for (let x = 0; x < cells.length; x++) {
      let s = "";
      for (let k = x; k < cells.length && s.length < text.length; k++) if (cells[k]!.w !== 0) s += cells[k]!.ch || " ";
      if (s.startsWith(text) && seen++ === nth) return { x, y };
    }
  }
  throw new Error(`"${text}" is not on screen:\n${rows.join("\n")}`);
}

const copies = () => [...outer.bytes.matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) => Buffer.from(m[1]!, "base64").toString("utf8"));

/** Do `act`, then the text of the OSC 52 copy it caused. */
async function copyOf(act: () => void | Promise<void>): Promise<string> {
  const before = copies().length;
  await act();
  await waitFor("an OSC 52 copy", () => copies().length > before);
  return copies().at(-1)!;
}

const mouse = (kind: unknown, x: number, y: number) => c.send({ Mouse: { kind, column: x, row: y, modifiers: "" } });
const key = (ch: string, modifiers = "") => c.send({ Key: { code: ch.length > 1 ? ch : { Char: ch }, modifiers, kind: "Press", state: "" } });
const type = (s: string) => {
  for (const ch of s) key(ch);
};

async function drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<string> {
  return copyOf(() => {
    mouse({ Down: "Left" }, from.x, from.y);
    mouse({ Drag: "Left" }, to.x, to.y);
    mouse({ Up: "Left" }, to.x, to.y);
  });
}

async function doubleClick(at: { x: number; y: number }): Promise<string> {
  return copyOf(() => {
    for (let i = 0; i < 2; i++) {
      mouse({ Down: "Left" }, at.x, at.y);
      mouse({ Up: "Left" }, at.x, at.y);
    }
  });
}

describe("the mouse copies the characters in the cells it went over", () => {
  test("a drag over `target` after 日本語テキスト copies `target`", async () => {
    const t = await cellOf("target");
    expect(await drag(t, { x: t.x + 5, y: t.y })).toBe("target");
  });

  test("a drag over `hello` after ✅ keeps its first letter", async () => {
    const h = await cellOf("hello");
    expect(await drag(h, { x: h.x + 4, y: h.y })).toBe("hello");
  });

  test("a drag over a wide character's right half takes the whole character", async () => {
    const n = await cellOf("本");
    expect(await drag({ x: n.x + 1, y: n.y }, { x: n.x + 3, y: n.y })).toBe("本語");
  });

  test("double-clicks after e + U+0301 pick the word clicked; on ééé, ééé with its marks", async () => {
    const w = await cellOf("word");
    expect(await doubleClick({ x: w.x + 2, y: w.y })).toBe("word");
    const e = await cellOf("e\u0301");
    expect(await doubleClick({ x: e.x + 1, y: e.y })).toBe("e\u0301e\u0301e\u0301");
  });

  test("a URL wrapped over two rows copies as one line, whole; a double-click on it too", async () => {
    const start = await cellOf("https://");
    const end = await cellOf("/yyyy");
    const text = await drag(start, { x: end.x + 36, y: end.y });
    expect(text).toBe(URL);
    expect(text).not.toContain("\n");
    expect(await doubleClick({ x: start.x + 30, y: start.y })).toBe(URL);
  });

  test("a line that wrapped early before a wide character copies with nothing added at the wrap", async () => {
    const a = await cellOf("aaaa");
    const z = await cellOf("日Z");
    expect(await drag(a, { x: z.x + 2, y: z.y })).toBe(`${"a".repeat(cols - 1)}日Z`);
  });
});

describe("copy mode works in cells", () => {
  const enter = () => {
    key(" ", "CONTROL");
    key("[");
  };
  const leave = () => key("q");

  async function search(dir: "/" | "?", q: string) {
    key(dir);
    await waitFor("the search prompt", async () => (await outer.rows()).some((r) => r.includes(dir === "/" ? "search down:" : "search up:")));
    type(q);
    key("Enter");
  }

  test("? finds `target` after the CJK: the cursor and the highlight are on its cells; vllllly copies it", async () => {
    enter();
    await search("?", "target");
    const t = await cellOf("target");
    const inverse = (x: number) => outer.term.buffer.active.getLine(t.y)!.getCell(x)!.isInverse() !== 0;
    await waitFor("the match drawn inverted", () => inverse(t.x) && inverse(t.x + 5));
    expect([inverse(t.x - 1), inverse(t.x + 6)]).toEqual([false, false]);
    expect(await copyOf(() => type("vllllly"))).toBe("target");
  });

  test("vi's motions: w b e, W E, f T ; ,, ^, { }", async () => {
    enter();
    await search("?", "日本語");
    // On "日本語テキスト target after": w to target, e to its end, b back to its start.
    expect(await copyOf(() => type("wve" + "y"))).toBe("target");
    enter();
    await search("?", "日本語");
    expect(await copyOf(() => type("wwvEy"))).toBe("after");
    enter();
    await search("?", "日本語");
    expect(await copyOf(() => type("wwbvey"))).toBe("target");
    enter();
    await search("?", "日本語");
    // f finds a character, t stops before one, ; repeats, , goes back.
    expect(await copyOf(() => type("fav$y"))).toBe("arget after");
    enter();
    await search("?", "日本語");
    expect(await copyOf(() => type("fa;v$y"))).toBe("after");
    enter();
    await search("?", "日本語");
    expect(await copyOf(() => type("fa;,v$y"))).toBe("arget after");
    enter();
    await search("?", "日本語");
    expect(await copyOf(() => type("$Tgv$y"))).toBe("et after");
    enter();
    await search("?", "hello");
    expect(await copyOf(() => type("$^vy"))).toBe("✅");
    // } goes to the blank line after the text, { back to the one before it.
    enter();
    await search("?", "日本語");
    expect(await copyOf(() => type("}kVy"))).toBe("end-of-text");
    enter();
    await search("?", "end-of-text");
    expect(await copyOf(() => type("}{jVy"))).not.toBe("end-of-text");
  });

  test("$ goes to the last character of a CJK line: 0v$y copies the whole line", async () => {
    enter();
    await search("?", "日本語");
    expect(await copyOf(() => type("0v$y"))).toBe("日本語テキスト target after");
  });

  test("/ searches forward, ? back; n follows the search's direction and N goes the other way", async () => {
    enter();
    // From the top: / finds the first `dup`, n the next.
    type("g0");
    await search("/", "dup");
    expect(await copyOf(() => type("v$y"))).toBe("dup one");
    enter();
    type("g0");
    await search("/", "dup");
    type("n");
    expect(await copyOf(() => type("v$y"))).toBe("dup two");
    // From the bottom: ? finds the nearer `dup` above, n the one above that, N back down.
    enter();
    await search("?", "dup");
    expect(await copyOf(() => type("v$y"))).toBe("dup two");
    enter();
    await search("?", "dup");
    type("n");
    expect(await copyOf(() => type("v$y"))).toBe("dup one");
    enter();
    await search("?", "dup");
    type("nN");
    expect(await copyOf(() => type("v$y"))).toBe("dup two");
    leave();
  });

  test("a search finds a URL across the row it wrapped at", async () => {
    enter();
    await search("?", "x/yyyy");
    // The match starts in the row's last column: the selection goes on to the next row.
    expect(await copyOf(() => type("vj0lllly"))).toBe("x/yyyy");
  });
});

describe("wrapped rows are joined the same way everywhere", () => {
  test("pane read --source recent-unwrapped, search and wait_for read the program's lines, nothing added at a wrap", async () => {
    const want = `${"a".repeat(cols - 1)}日Z`;
    const read = await s.request({ v: 6, type: "pane_read", pane, source: "recent-unwrapped" });
    const lines = (read.text as string).split("\n");
    expect(lines).toContain(want);
    expect(lines).toContain(URL);
    const found = await s.request({ v: 6, type: "search", pattern: "a日Z" });
    expect(JSON.stringify(found)).toContain(want);
    const waited = await s.request({ v: 6, type: "wait_for", condition: "output", pane, pattern: "a日Z", source: "recent-unwrapped", timeout: 5000 });
    expect(waited.type).not.toBe("error");
  });
});
