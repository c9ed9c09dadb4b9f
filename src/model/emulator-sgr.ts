// SGR parameters xterm.js drops that tmux keeps: 6 (rapid blink) is blink, as tmux 3.3a and xterm
// draw it (xterm.js logs it as unknown and the cell would lose the attribute on its way to the
// user's terminal).
import type { Terminal } from "@xterm/headless";
import { coreOf } from "./xterm-internals";

/** xterm.js's blink bit in a cell's foreground word (FgFlags.BLINK). */
const FG_BLINK = 1 << 29;

type Params = (number | number[])[];

/** The index (in xterm's parameter array, where colon sub-parameters are an array after their
 * parameter) of the last top-level 6 and of the last parameter that clears blink (0, 25), skipping
 * the arguments of a semicolon-form colour (38;5;6 is a colour, not rapid blink). */
function lastBlinkAndReset(p: Params): { blink: number; reset: number } {
  let blink = -1, reset = -1;
  for (let i = 0; i < p.length; i++) {
    const v = p[i];
    if (typeof v !== "number") continue; // colon form: its arguments are sub-parameters
    if (v === 6) blink = i;
    else if (v === 0 || v === 25) reset = i;
    else if ((v === 38 || v === 48 || v === 58) && typeof p[i + 1] === "number") i += p[i + 1] === 5 ? 2 : p[i + 1] === 2 ? 4 : 0;
  }
  return { blink, reset };
}

/** Map SGR 6 to blink on `term`'s pen, after xterm's own SGR handling has run. */
export function rapidBlinkAsBlink(term: Terminal): void {
  const ih = coreOf(term)?._inputHandler;
  const own = ih?.charAttributes;
  if (!ih || typeof own !== "function" || typeof ih._curAttrData?.fg !== "number") return;
  ih.charAttributes = (p) => {
    const done = own.call(ih, p);
    const { blink, reset } = lastBlinkAndReset(p.toArray());
    // Only a later 0 or 25 would have cleared it: then the sequence's own order says no blink.
    // The pen is read each time (RIS makes a new one).
    if (blink > reset && ih._curAttrData) ih._curAttrData.fg |= FG_BLINK;
    return done;
  };
}
