// Underline styles (4:2–4:5, 21), underline colours (58:2::R:G:B, 58:5:N) and OSC 8 hyperlinks
// reach the user's terminal as the program wrote them: a real daemon, a program
// in a pane, an attach client whose frames are replayed into a terminal that reads the cells back.
import { expect, test } from "bun:test";
import { Terminal, type IBufferCell } from "@xterm/headless";
import { useServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { OuterTerminal } from "./outer-terminal";
import { underlineColor, underlineStyle } from "../src/model/render-cells";
import { Grid, UNDERLINE, UL_SHIFT, RGB, PALETTE } from "../src/ui/grid";
import { ScreenDiff } from "../src/ui/diff";

const s = useServer();

/** Each cell of row y: its text, underline style and colour, and link URI. */
function cellsOf(term: Terminal, y: number, n: number) {
  const line = term.buffer.active.getLine(y)!;
  // xterm keeps OSC 8 links in a private service: reached through `unknown`, as no public API reads them.
  const links = (term as unknown as { _core: { _oscLinkService: { getLinkData(id: number): { uri: string } | undefined } } })._core._oscLinkService;
  const out: { ch: string; style: number; color: number; uri?: string }[] = [];
  for (let x = 0; x < n; x++) {
    const c = line.getCell(x) as IBufferCell & { extended: { _urlId: number } };
    const id = c.extended?._urlId;
    out.push({ ch: c.getChars(), style: underlineStyle(c), color: underlineColor(c), ...(id ? { uri: links.getLinkData(id)?.uri } : {}) });
  }
  return out;
}

test("underline styles and colours, and hyperlinks, reach the user's terminal", async () => {
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 20 });
  const outer = new OuterTerminal(c, 100, 20);
  await c.firstFrame();
  const printed =
    "\\033[H\\033[2J" +
    "\\033[4mS\\033[4:2mD\\033[4:3mC\\033[4:4mT\\033[4:5mH\\033[0m\\033[21mW\\033[0m" + // single double curly dotted dashed, 21 double
    "\\033[4:3;58:2::255:0:0mR\\033[58:5:33mP\\033[0m" + // red curly, palette-33 curly
    "\\033]8;id=a1;https://example.invalid/x\\033\\\\LINK\\033]8;;\\033\\\\" + // a hyperlink, not underlined
    "\\033[4mU\\033[0m.";
  const pane = Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", `printf '${printed}'; exec cat`])).trim());
  await s.waitScreen(pane, "LINKU.");
  await waitFor("the user's screen to show the row", async () => ((await outer.rows())[1] === "SDCTHWRPLINKU." ? true : undefined));
  await outer.rows();
  const cells = cellsOf(outer.term, 1, 14);
  expect(cells.map((x) => x.style)).toEqual([1, 2, 3, 4, 5, 2, 3, 3, 0, 0, 0, 0, 1, 0]);
  expect(cells[6]!.color).toBe(RGB | 0xff0000);
  expect(cells[7]!.color).toBe(PALETTE | 33);
  expect(cells[0]!.color).toBe(0);
  expect(cells.slice(8, 12).map((x) => x.uri)).toEqual(Array(4).fill("https://example.invalid/x"));
  expect(cells[12]!.uri).toBeUndefined();
  // The bytes: the styles in their colon forms, the link opened once and closed.
  expect(outer.bytes).toContain("4:3;58:2::255:0:0");
  expect(outer.bytes).toMatch(/\x1b\]8;id=a1;https:\/\/example\.invalid\/x\x1b\\LINK(\x1b\[[0-9;:]*m)?\x1b\]8;;\x1b\\(\x1b\[[0-9;:]*m)?U/);
  // pane read --styled keeps them too.
  const styled = await s.v6({ type: "pane_read", pane, source: "visible", styled: true });
  expect(styled.text).toContain("4:3;58:2::255:0:0m");
  c.close();
}, 60000);

test("the diff opens a link before its cells and closes it after; styled underlines in colon form", () => {
  const g = new Grid(10, 1);
  g.set(0, 0, "a", 1, 0, 0, 0, 0, "id=x;https://ok.invalid/");
  g.set(1, 0, "b", 1, 0, 0, UNDERLINE | (3 << UL_SHIFT), RGB | 0x00ff00);
  const out = new ScreenDiff().render(g);
  expect(out).toContain("\x1b]8;id=x;https://ok.invalid/\x1b\\a\x1b[0;4:3;58:2::0:255:0m\x1b]8;;\x1b\\b");
});

test("linkText refuses what could break out of the OSC string", async () => {
  const { linkText } = await import("../src/model/render-cells");
  expect(linkText({ uri: "https://a.invalid/\x1b[2J" })).toBeUndefined();
  expect(linkText({ uri: "https://a.invalid/é" })).toBeUndefined();
  expect(linkText({ uri: "x".repeat(5000) })).toBeUndefined();
  expect(linkText({ id: "a;b", uri: "https://a.invalid/" })).toBe(";https://a.invalid/");
  expect(linkText({ id: "ok-1", uri: "https://a.invalid/" })).toBe("id=ok-1;https://a.invalid/");
});

test("SGR 6 (rapid blink) is blink, as tmux draws it; 38;5;6 stays a colour and a later 25 or 0 still clears it", async () => {
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 60, rows: 10 });
  const outer = new OuterTerminal(c, 60, 10);
  await c.firstFrame();
  const printed = "\\033[H\\033[2J\\033[6mF\\033[0mN\\033[38;5;6mC\\033[0m\\033[6;25mX\\033[0;6mY\\033[0m\\033[1;6;31mZ\\033[0m.";
  const pane = Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", `printf '${printed}'; exec cat`])).trim());
  await s.waitScreen(pane, "FNCXYZ.");
  await waitFor("the user's screen to show the row", async () => ((await outer.rows())[1]?.trimEnd() === "FNCXYZ." ? true : undefined));
  const line = outer.term.buffer.active.getLine(1)!;
  const blink = [0, 1, 2, 3, 4, 5].map((x) => line.getCell(x)!.isBlink() !== 0);
  expect(blink).toEqual([true, false, false, false, true, true]);
  expect(line.getCell(2)!.getFgColor()).toBe(6);
  expect(line.getCell(5)!.isBold()).not.toBe(0);
  c.close();
}, 60000);
