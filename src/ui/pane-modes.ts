// Terminal modes xterm's public `term.modes` does not expose but the server
// needs: mouse encoding (DECSET 1005/1006/1015), cursor visibility (DECTCEM)
// and shape (DECSCUSR). Handlers observe and return false so xterm's own
// handling still runs.

import type { Terminal } from "@xterm/headless";

export type MouseEncoding = "default" | "utf8" | "sgr" | "urxvt";

export interface ExtraModes {
  mouseEncoding: MouseEncoding;
  cursorHidden: boolean;
  /** DECSCUSR parameter: 0/1 blinking block, 2 block, 3/4 underline, 5/6 bar. */
  cursorShape: number;
}

export function trackModes(term: Terminal): ExtraModes {
  const m: ExtraModes = { mouseEncoding: "default", cursorHidden: false, cursorShape: 0 };
  const set = (params: (number | number[])[], on: boolean) => {
    for (const p of params) {
      const n = typeof p === "number" ? p : p[0];
      if (n === 25) m.cursorHidden = !on;
      else if (n === 1006) m.mouseEncoding = on ? "sgr" : m.mouseEncoding === "sgr" ? "default" : m.mouseEncoding;
      else if (n === 1005) m.mouseEncoding = on ? "utf8" : m.mouseEncoding === "utf8" ? "default" : m.mouseEncoding;
      else if (n === 1015) m.mouseEncoding = on ? "urxvt" : m.mouseEncoding === "urxvt" ? "default" : m.mouseEncoding;
    }
    return false;
  };
  term.parser.registerCsiHandler({ prefix: "?", final: "h" }, (p) => set(p, true));
  term.parser.registerCsiHandler({ prefix: "?", final: "l" }, (p) => set(p, false));
  term.parser.registerCsiHandler({ intermediates: " ", final: "q" }, (p) => {
    const n = typeof p[0] === "number" ? p[0] : 0;
    m.cursorShape = n ?? 0;
    return false;
  });
  const reset = () => {
    m.mouseEncoding = "default";
    m.cursorHidden = false;
    m.cursorShape = 0;
    return false;
  };
  term.parser.registerEscHandler({ final: "c" }, reset); // RIS
  term.parser.registerCsiHandler({ intermediates: "!", final: "p" }, reset); // DECSTR
  return m;
}
