// The colours panes' programs are told their terminal has (OSC 10/11/12 and OSC 4 queries;
// emulator-queries.ts answers them): the person's terminal's, as it answered at attach
// (protocol/terminal-report.ts), over ws's defaults. With nobody attached, and for what the
// terminal did not answer, the defaults: light text on black, the dark theme most terminals start
// with (xterm's black on white is the exception) and the one agents pick when nobody answers, and
// xterm's palette. One set for the process, as there is one attached terminal; the emulator
// worker gets every change on its port, in order with the output.
import type { TerminalReport } from "../protocol/terminal-report";

export interface TerminalColours {
  fg: string;
  bg: string;
  cursor: string;
  /** All 256 entries. */
  palette: readonly string[];
}

const rgb = (hex: string) => `rgb:${hex.slice(0, 2).repeat(2)}/${hex.slice(2, 4).repeat(2)}/${hex.slice(4, 6).repeat(2)}`;
const byte = (n: number) => n.toString(16).padStart(2, "0");

/** xterm's palette: its 16 colours, the 6×6×6 cube and 24 greys. */
function xtermPalette(): string[] {
  const out = ["000000", "cd0000", "00cd00", "cdcd00", "0000ee", "cd00cd", "00cdcd", "e5e5e5", "7f7f7f", "ff0000", "00ff00", "ffff00", "5c5cff", "ff00ff", "00ffff", "ffffff"].map(rgb);
  const level = [0, 95, 135, 175, 215, 255];
  for (let i = 0; i < 216; i++) out.push(rgb(byte(level[Math.floor(i / 36)]!) + byte(level[Math.floor(i / 6) % 6]!) + byte(level[i % 6]!)));
  for (let i = 0; i < 24; i++) out.push(rgb(byte(8 + 10 * i).repeat(3)));
  return out;
}

export const DEFAULT_COLOURS: TerminalColours = { fg: "rgb:ffff/ffff/ffff", bg: "rgb:0000/0000/0000", cursor: "rgb:ffff/ffff/ffff", palette: xtermPalette() };

let current = DEFAULT_COLOURS;
const listeners: ((c: TerminalColours) => void)[] = [];

export function terminalColours(): TerminalColours {
  return current;
}

/** The terminal's report over the defaults (undefined: nobody attached, the defaults). */
export function coloursFrom(r: TerminalReport | undefined): TerminalColours {
  if (!r) return DEFAULT_COLOURS;
  const palette = [...DEFAULT_COLOURS.palette];
  for (const [i, c] of Object.entries(r.palette ?? {})) palette[Number(i)] = c;
  const fg = r.fg ?? DEFAULT_COLOURS.fg;
  return { fg, bg: r.bg ?? DEFAULT_COLOURS.bg, cursor: r.cursor ?? fg, palette };
}

/** Set what panes are told (the Session calls this; the worker, with what the main thread sent). */
export function setTerminalColours(c: TerminalColours): void {
  current = c;
  for (const l of listeners) l(c);
}

/** Hear every change (the emulator worker's client forwards them). */
export function onTerminalColours(l: (c: TerminalColours) => void): void {
  listeners.push(l);
}
