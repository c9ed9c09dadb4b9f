// A pane's program asks its terminal questions (DA1/DA2, DSR, cursor position, DECRQM, window
// size, XTVERSION, the kitty keyboard flags, its colours) and often waits for the answer: vttest hangs, Gemini
// CLI waits out a 1 s probe. The pane's emulator is that terminal: xterm answers most itself
// through its onData (Emulator routes that to the pane's PTY); this adds what it leaves out, and
// the VT100 behaviour vttest checks that xterm.js skips (DECCOLM, DEC graphics arrows).
import type { Terminal } from "@xterm/headless";
import { WS_VERSION } from "../build-info";
import type { ExtraModes } from "./emulator-modes";
import { terminalColours } from "./terminal-colours";
import { normaliseColour } from "../protocol/terminal-report";
import { coreOf } from "./xterm-internals";

type Params = (number | number[])[];
const first = (p: Params, dflt = 0): number => {
  const v = p[0];
  const n = typeof v === "number" ? v : v?.[0];
  return n === undefined || n < 0 ? dflt : n;
};

/** The XTVERSION answer: DCS > | name version ST. */
export const XTVERSION_REPLY = `\x1bP>|ws ${WS_VERSION}\x1b\\`;

/** The colours the program set itself (OSC 10/11/12 and OSC 4), which its queries are answered with. */
export interface OwnColours {
  fg?: string;
  bg?: string;
  cursor?: string;
  palette: Map<number, string>;
}

/** Answer the queries xterm leaves unanswered; `reply` goes to the pane's program. Returns the
 * colours the program sets (an emulator made again takes them over). */
export function answerQueries(term: Terminal, extra: ExtraModes, reply: (s: string) => void): OwnColours {
  term.parser.registerCsiHandler({ prefix: ">", final: "q" }, (p) => {
    if (first(p) === 0) reply(XTVERSION_REPLY);
    return true;
  });
  // DECRQM for the modes ws keeps itself (xterm.js calls 1005 and 1015 unsupported) and for
  // grapheme clustering (2027), always on with ws's width tables. The rest: xterm's own answer.
  term.parser.registerCsiHandler({ prefix: "?", intermediates: "$", final: "p" }, (p) => {
    const mode = first(p, -1);
    const own: Record<number, boolean> = { 1005: extra.mouseEncoding === "utf8", 1015: extra.mouseEncoding === "urxvt" };
    if (mode in own) reply(`\x1b[?${mode};${own[mode] ? 1 : 2}$y`);
    else if (mode === 2027) reply(`\x1b[?2027;3$y`);
    else return false;
    return true;
  });
  const own = answerColours(term, reply);
  trackDeccolm(term);
  addDecGraphicsArrows(term);
  return own;
}

type DynamicColour = "fg" | "bg" | "cursor";
const DYNAMIC: Record<number, DynamicColour> = { 10: "fg", 11: "bg", 12: "cursor" };

/**
 * The colour queries: OSC 10, 11, 12 (`?`, or `?;?` for the ones after it, as xterm reads them)
 * and OSC 4 (`n;?` pairs). The answer is the colour the program set itself, if it did, else the
 * person's terminal's (model/terminal-colours.ts), ended with ST; it goes to this pane's program
 * only, in order with its other answers. xterm's own handling of the rest still runs.
 */
function answerColours(term: Terminal, reply: (s: string) => void): OwnColours {
  const own: OwnColours = { palette: new Map() };
  for (const first of [10, 11, 12]) {
    term.parser.registerOscHandler(first, (data) => {
      data.split(";").forEach((spec, i) => {
        const key = DYNAMIC[first + i];
        if (!key) return;
        if (spec === "?") reply(`\x1b]${first + i};${own[key] ?? terminalColours()[key]}\x1b\\`);
        else {
          const c = normaliseColour(spec);
          if (c) own[key] = c;
        }
      });
      return false;
    });
    term.parser.registerOscHandler(first + 100, () => {
      own[DYNAMIC[first]!] = undefined;
      return false;
    });
  }
  term.parser.registerOscHandler(4, (data) => {
    const parts = data.split(";");
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const n = Number(parts[i]);
      if (!Number.isInteger(n) || n < 0 || n > 255) continue;
      if (parts[i + 1] === "?") reply(`\x1b]4;${n};${own.palette.get(n) ?? terminalColours().palette[n]}\x1b\\`);
      else {
        const c = normaliseColour(parts[i + 1]!);
        if (c) own.palette.set(n, c);
      }
    }
    return false;
  });
  term.parser.registerOscHandler(104, (data) => {
    if (data === "") own.palette.clear();
    else for (const n of data.split(";")) own.palette.delete(Number(n));
    return false;
  });
  term.parser.registerEscHandler({ final: "c" }, () => {
    own.fg = own.bg = own.cursor = undefined;
    own.palette.clear();
    return false;
  });
  return own;
}

/**
 * DECCOLM (CSI ? 3 h / l) switches a VT100 between 80 and 132 columns, and the switch clears the
 * screen, resets the margins and homes the cursor. The pane's size is ws's to set, so the width
 * stays; the clearing is done as tmux and xterm do, or vttest's 132-column pages draw over the
 * page before.
 */
function trackDeccolm(term: Terminal): void {
  const ih = coreOf(term)?._inputHandler;
  if (typeof ih?.setScrollRegion !== "function" || typeof ih.eraseInDisplay !== "function") return;
  const clear = (p: Params) => {
    if (p.some((v) => (typeof v === "number" ? v : v[0]) === 3)) {
      ih.setScrollRegion!.call(ih, { params: [0], length: 0 }); // full-screen margins, cursor home
      ih.eraseInDisplay!.call(ih, { params: [2], length: 1 });
    }
    return false; // xterm's own handling of the other modes still runs
  };
  term.parser.registerCsiHandler({ prefix: "?", final: "h" }, clear);
  term.parser.registerCsiHandler({ prefix: "?", final: "l" }, clear);
}

/** What xterm (the program) draws for DEC special graphics 0x2b–0x30, which xterm.js leaves as
 * ASCII: arrows and a block (vttest's character set page). */
const DEC_ARROWS: Record<string, string> = { "+": "→", ",": "←", "-": "↑", ".": "↓", "0": "▮" };
let arrowsAdded = false;

/** xterm.js keeps one shared table per character set; add the arrows to its DEC graphics table
 * once, found through a terminal that designates it. */
function addDecGraphicsArrows(term: Terminal): void {
  if (arrowsAdded) return;
  arrowsAdded = true;
  const core = coreOf(term);
  const cs = core?._charsetService;
  const ih = core?._inputHandler;
  if (!Array.isArray(cs?._charsets) || typeof cs.setgCharset !== "function" || typeof ih?.selectCharset !== "function") return;
  const before = cs._charsets[0];
  ih.selectCharset("(0");
  const dec = cs._charsets[0] as Record<string, string> | undefined;
  cs.setgCharset(0, before);
  if (dec && dec["`"] === "◆" && dec.q === "─") Object.assign(dec, DEC_ARROWS);
}
