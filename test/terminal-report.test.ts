// The answers ws reads from the user's terminal about itself (protocol/terminal-report.ts): colours
// normalised to xterm's rgb:rrrr/gggg/bbbb, a client's TERMINAL frame checked field by field, and
// the gathering that ends at the DA1 answer after them.
import { describe, expect, test } from "bun:test";
import { InputParser } from "../src/protocol/input-parser";
import { TERMINAL_QUERY, TerminalAsk, asksTerminal, checkTerminalReport, normaliseColour, type TerminalReport } from "../src/protocol/terminal-report";
import { coloursFrom, DEFAULT_COLOURS } from "../src/model/terminal-colours";
import { waitFor } from "./harness";

describe("terminal report", () => {
  test("colours: rgb: with 1 to 4 digits a channel and #hex become 4 digits; anything else is refused", () => {
    expect(normaliseColour("rgb:1111/2222/3333")).toBe("rgb:1111/2222/3333");
    expect(normaliseColour("rgb:ff/80/0")).toBe("rgb:ffff/8080/0000");
    expect(normaliseColour("rgb:f/8/0")).toBe("rgb:ffff/8888/0000");
    expect(normaliseColour("#1a2b3c")).toBe("rgb:1a1a/2b2b/3c3c");
    expect(normaliseColour("#fff")).toBe("rgb:ffff/ffff/ffff");
    for (const bad of ["red", "rgb:1/2", "rgb:12345/0/0", "rgb:1/2/3\x1b[2J", "#12345", "rgba:1/2/3/4", ""]) expect(normaliseColour(bad)).toBeUndefined();
  });

  test("a client's report keeps only well-formed fields", () => {
    expect(checkTerminalReport({ fg: "rgb:1/2/3", bg: "\x1b]0;evil\x07", cursor: 5, palette: { 1: "#ff0000", 300: "#fff", x: "#fff", 2: "nope" }, version: "kitty(0.35)\x1b", extra: 1 })).toEqual({
      fg: "rgb:1111/2222/3333",
      palette: { 1: "rgb:ffff/0000/0000" },
    });
    expect(checkTerminalReport({ version: "tmux 3.3a" })).toEqual({ version: "tmux 3.3a" });
    for (const junk of [null, "x", [1], 3]) expect(checkTerminalReport(junk)).toEqual({});
  });

  test("the answers to TERMINAL_QUERY as a terminal gives them, read by the input parser, gathered until DA1", () => {
    expect(TERMINAL_QUERY).toContain("\x1b]11;?\x1b\\");
    expect(TERMINAL_QUERY).toContain("\x1b]4;0;?\x1b\\\x1b]4;1;?\x1b\\");
    let got: TerminalReport | undefined;
    const ask = new TerminalAsk((r) => (got = r), 60_000);
    const p = new InputParser((r) => ask.reply(r));
    p.feed("\x1bP>|tmux 3.3a\x1b\\\x1b]10;rgb:aaaa/bbbb/cccc\x1b\\\x1b]11;rgb:1111/2222/3333\x07\x1b]4;1;rgb:cdcd/1212/3434\x1b\\");
    expect(got).toBeUndefined();
    p.feed("\x1b[?1;2c");
    expect(got).toEqual({ version: "tmux 3.3a", fg: "rgb:aaaa/bbbb/cccc", bg: "rgb:1111/2222/3333", palette: { 1: "rgb:cdcd/1212/3434" } });
  });

  test("a terminal that answers nothing: the deadline gives an empty report", async () => {
    const got: TerminalReport[] = [];
    new TerminalAsk((r) => got.push(r), 10);
    await waitFor("the deadline", () => got.length > 0, 5000);
    expect(got).toEqual([{}]);
  });

  test("the colours panes hear: the report over the defaults (dark, xterm's palette); the cursor follows the foreground", () => {
    expect(coloursFrom(undefined)).toBe(DEFAULT_COLOURS);
    expect(DEFAULT_COLOURS.bg).toBe("rgb:0000/0000/0000");
    expect(DEFAULT_COLOURS.palette.length).toBe(256);
    expect(DEFAULT_COLOURS.palette[1]).toBe("rgb:cdcd/0000/0000");
    expect(DEFAULT_COLOURS.palette[16]).toBe("rgb:0000/0000/0000");
    expect(DEFAULT_COLOURS.palette[196]).toBe("rgb:ffff/0000/0000");
    expect(DEFAULT_COLOURS.palette[255]).toBe("rgb:eeee/eeee/eeee");
    const c = coloursFrom({ fg: "rgb:aaaa/bbbb/cccc", palette: { 3: "rgb:0101/0202/0303" } });
    expect([c.fg, c.bg, c.cursor, c.palette[3], c.palette[4]]).toEqual(["rgb:aaaa/bbbb/cccc", DEFAULT_COLOURS.bg, "rgb:aaaa/bbbb/cccc", "rgb:0101/0202/0303", DEFAULT_COLOURS.palette[4]]);
  });

  test("the Linux console is not asked (it prints an OSC it does not know)", () => {
    expect(asksTerminal("linux")).toBe(false);
    expect(asksTerminal("xterm-256color")).toBe(true);
    expect(asksTerminal(undefined)).toBe(true);
  });
});
