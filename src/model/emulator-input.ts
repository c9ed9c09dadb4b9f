// How a pane's output gets into its xterm. xterm's public `write` queues the bytes and parses them
// after a setTimeout(0) (~1.3 ms in Bun) whenever its queue was empty, so a pane fed piece by piece
// waits more than it parses. xterm's own parse step (what that timer calls) parses at once, and
// lets ws time its slices itself (src/model/parse-slices.ts).
import type { Terminal } from "@xterm/headless";
import { coreOf } from "./xterm-internals";

/** Parses `bytes` into the terminal; a Promise when the parse must wait (then parse nothing more
 * into this terminal until it settles: the parser holds its place in `bytes`). */
export type EmulatorInput = (bytes: Uint8Array) => void | Promise<void>;

type AsyncParse = (data: Uint8Array, promiseResult?: boolean) => void | boolean | Promise<boolean>;

/** xterm's internal InputHandler.parse, or null when this xterm has none (an upgrade renamed it). */
export function syncParse(term: Terminal): AsyncParse | null {
  const ih = coreOf(term)?._inputHandler;
  return ih && typeof ih.parse === "function" ? (ih.parse as AsyncParse).bind(ih) : null;
}

/** Parse now when xterm lets us (its internal parse step); otherwise its public write, one piece
 * at a time. */
export function emulatorInput(term: Terminal): EmulatorInput {
  const parse = syncParse(term);
  if (!parse) {
    // xterm's write buffer parses at once (no timer) after user input: say so before each write.
    const wb = coreOf(term)?._writeBuffer;
    return (bytes) =>
      new Promise((resolve) => {
        if (wb && "_didUserInput" in wb) wb._didUserInput = true;
        term.write(bytes, resolve);
      });
  }
  // A parser handler may answer with a Promise (xterm's async handlers; ws registers none): the
  // parse then resumes in the same bytes with the handler's result, as xterm's write queue does.
  const resume = (bytes: Uint8Array, r: void | boolean | Promise<boolean>): void | Promise<void> =>
    r instanceof Promise ? r.then((v) => resume(bytes, parse(bytes, v))) : undefined;
  return (bytes) => resume(bytes, parse(bytes));
}
