// A resting pane's text for the save, read from what its emulator left when it was put away (its
// packed rows and its history store, resting-emulator.ts) without making the emulator again: the
// same text captureText gives once it is back.
import type { PutAway } from "./emulator";
import { historyLineTexts } from "./history-view";
import { linesText } from "./text-capture";
import { normalRowsOf } from "./xterm-state";

export function restedText(state: PutAway): string {
  const lines = normalRowsOf(state.xterm);
  const top = lines.get(0);
  const history = state.store ? historyLineTexts(state.store, top?.isWrapped === true, top !== undefined && top._data[0]! >> 22 === 2) : { texts: [], continued: false };
  return linesText(lines, history);
}
