// Every reach ws makes into @xterm/headless's private internals (src/model/xterm-internals.ts),
// one test each, on a real xterm: after an upgrade, a failing test names the part that changed,
// and the module that uses it falls back or does without. The last tests hold the reaches to
// that one module.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Terminal } from "@xterm/headless";
import { cellInternals, coreOf, normalBuffer, rawBuffer, rawCell, rawLineOf, statePartsOf } from "../src/model/xterm-internals";

const term = (cols = 20, rows = 4) => new Terminal({ cols, rows, scrollback: 100, allowProposedApi: true });
const write = (t: Terminal, s: string) => new Promise<void>((r) => t.write(s, r));

test("the core is there", () => {
  expect(typeof coreOf(term())).toBe("object");
});

test("input handler: the rows a parse changed, and a reset (dirty-rows)", async () => {
  const t = term();
  const ih = coreOf(t)!._inputHandler!;
  const ranges: unknown[] = [];
  ih.onRequestRefreshRows!((e) => ranges.push(e));
  let resets = 0;
  ih.onRequestReset!(() => resets++);
  await write(t, "\r\n\r\nx");
  expect(ranges).toContainEqual({ start: 0, end: 2 });
  await write(t, "\x1bc");
  expect(resets).toBe(1);
});

test("input handler: its parse step parses at once (emulator-input)", () => {
  const t = term();
  coreOf(t)!._inputHandler!.parse!(new TextEncoder().encode("now"));
  expect(t.buffer.active.getLine(0)!.translateToString(true)).toBe("now");
});

test("write buffer: the user-input flag (emulator-input's fallback)", () => {
  expect("_didUserInput" in coreOf(term())!._writeBuffer!).toBe(true);
});

test("input handler: scroll region and erase in display, for DECCOLM (emulator-queries)", async () => {
  const t = term();
  await write(t, "abc\r\ndef\x1b[2;3r");
  const ih = coreOf(t)!._inputHandler!;
  ih.setScrollRegion!.call(ih, { params: [0], length: 0 });
  ih.eraseInDisplay!.call(ih, { params: [2], length: 1 });
  expect([t.buffer.active.cursorX, t.buffer.active.cursorY, t.buffer.active.getLine(0)!.translateToString(true)]).toEqual([0, 0, ""]);
});

test("charset service: the shared tables, and selecting DEC graphics (emulator-queries)", () => {
  const core = coreOf(term())!;
  const cs = core._charsetService!;
  expect(Array.isArray(cs._charsets)).toBe(true);
  expect(typeof cs.setgCharset).toBe("function");
  core._inputHandler!.selectCharset!("(0");
  expect((cs._charsets![0] as Record<string, string>).q).toBe("─");
});

test("link service: a hyperlink's data by id, and a cell's extended attributes (render-cells)", async () => {
  const t = term();
  await write(t, "\x1b]8;id=a;https://example.invalid/\x07L\x1b]8;;\x07\x1b[4:3m\x1b[58;5;9mU");
  const b = t.buffer.active;
  const link = cellInternals(b.getLine(0)!.getCell(0)!);
  const id = link.extended!._urlId!;
  expect(coreOf(t)!._oscLinkService!.getLinkData!(id)).toEqual({ id: "a", uri: "https://example.invalid/" });
  const curly = cellInternals(b.getLine(0)!.getCell(1)!);
  expect(((curly.extended!._ext! >>> 26) & 7) === 3 && (curly.extended!._ext! & 0xff) === 9).toBe(true);
});

test("buffer: raw rows, their words and combined text, markers and ybase (text-capture)", async () => {
  const t = term();
  await write(t, "a\u00e9\u0301漢");
  const b = rawBuffer(t)!;
  const row = b.lines.get(0)!;
  expect(row._data[0]! & 0x1fffff).toBe(0x61);
  expect(row._combined[1]).toBe("\u00e9\u0301");
  expect(row._data[3 * 2]! >>> 22).toBe(2); // 漢 is two cells wide
  expect(row.getTrimmedLength()).toBe(4);
  expect(typeof b.ybase).toBe("number");
  const m = b.addMarker(0);
  expect(m.line).toBe(0);
  m.dispose();
});

test("buffer: the cursor as the active buffer keeps it (cursor-reflow)", async () => {
  const t = term();
  await write(t, "\r\n\r\n\r\n\r\n\r\nab");
  const b = coreOf(t)!.buffer!;
  expect([b.x, b.y, b.ybase]).toEqual([2, 3, 2]);
});

test("normal buffer: its row list trims from the top and keeps scroll state (history-capture)", async () => {
  const t = term();
  await write(t, "1\r\n2\r\n3\r\n4\r\n5\r\n6");
  const nb = normalBuffer(t)!;
  expect([nb.lines.length, nb.ybase, nb.ydisp, nb.lines.maxLength]).toEqual([6, 2, 2, 104]);
  nb.lines.trimStart(1);
  expect(nb.lines.length).toBe(5);
  expect(Array.isArray(nb.lines._array) && typeof nb.lines._startIndex === "number").toBe(true);
});

test("rows and cells: the raw row behind a public row, and a cell to write rows with (history-store)", () => {
  const t = term();
  const view = t.buffer.normal.getLine(0)!;
  const raw = rawLineOf(view)!;
  expect(raw._data).toBeInstanceOf(Uint32Array);
  expect(typeof raw.setCell).toBe("function");
  const cell = rawCell(t.buffer.normal.getNullCell());
  expect(typeof cell.content === "number" && typeof cell.extended._ext === "number").toBe(true);
  // The row class and view class make a row back.
  const Line = raw.constructor as new (cols: number) => typeof raw;
  const View = view.constructor as new (l: typeof raw) => typeof view;
  expect(new View(new Line(5)).length).toBe(5);
});

test("row copy and scroll events: copyFrom on the shared row class, the scroll emitters (xterm-speedups)", () => {
  const core = coreOf(term())!;
  const row = core.buffer!.lines!.get(0)!;
  expect(typeof Object.getPrototypeOf(row).copyFrom).toBe("function");
  expect(row._extendedAttrs).toBeDefined();
  expect(core._bufferService!._onScroll!._size).toBe(1);
  expect(core._onScroll!._size).toBe(0);
  expect(typeof core._inputHandler!.markRangeDirty).toBe("function");
});

test("print and SGR steps, with the state they read (emulator-unicode, emulator-sgr)", () => {
  const ih = coreOf(term())!._inputHandler!;
  expect(typeof ih.print).toBe("function");
  expect(typeof ih._parser!.precedingJoinState).toBe("number");
  expect(typeof ih._activeBuffer!.x).toBe("number");
  expect(typeof ih.charAttributes).toBe("function");
  expect(typeof ih._curAttrData!.fg).toBe("number");
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** Casts into xterm's private core or rows outside xterm-internals.ts. */
function privateCasts(files: { path: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    if (path.endsWith("model/xterm-internals.ts")) continue;
    const code = text.replace(/^\s*(\/\/|\*).*$/gm, "");
    if (/\._core\b|\(\w+ as any\)|as unknown as \{\s*_/.test(code)) out.push(path);
  }
  return out;
}

test("no module but xterm-internals.ts casts into xterm's internals", () => {
  const src = join(import.meta.dir, "../src");
  const files = sources(src).map((p) => ({ path: relative(src, p), text: readFileSync(p, "utf8") }));
  expect(privateCasts(files)).toEqual([]);
  // The check sees one.
  expect(privateCasts([{ path: "model/x.ts", text: "const b = (term as unknown as { _core?: X })._core;" }])).toEqual(["model/x.ts"]);
});

test("state parts: buffers, modes, mouse, charsets, pen, titles, links and write queue (xterm-state)", async () => {
  const t = term();
  expect(statePartsOf(t)).toBeDefined();
  const s = statePartsOf(t)!;
  await new Promise<void>((r) => t.write("\x1b[?1000h\x1b[?2004h\x1b(0\x1b]2;a title\x07\x1b[31m", r));
  expect(s.coreService.decPrivateModes.bracketedPasteMode).toBe(true);
  expect(s.coreMouseService.activeProtocol).toBe("VT200");
  expect(s.charset._charsets[0]).toBeDefined();
  expect(s.input._windowTitle).toBe("a title");
  expect(s.input._parser.currentState).toBe(0);
  expect(s.writeBuffer._writeBuffer.length).toBe(0);
});
