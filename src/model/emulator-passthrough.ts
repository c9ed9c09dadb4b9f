// What a pane's program says to the terminal outside, beyond its screen: the clipboard (OSC 52)
// and the cursor colour (OSC 12 / 112). The emulator keeps them here; the interface decides what
// reaches the user's terminal (src/ui/passthrough.ts: keys.toml `clipboard`, the focused pane).
import type { Terminal } from "@xterm/headless";
import type { ExtraModes } from "./emulator-modes";

/** The most an OSC 52 payload may carry (base64): larger copies are dropped (docs/limits.md). */
export const CLIPBOARD_MAX = 256 * 1024;

/** An OSC 52 payload that is safe to send on: selection letters, then base64 (no queries). */
export function checkClipboard(data: string): string | undefined {
  if (data.length > CLIPBOARD_MAX + 16) return undefined;
  const m = /^([cpqs0-7]{0,8});([A-Za-z0-9+/]*={0,2})$/.exec(data);
  return m ? `${m[1] || "c"};${m[2]}` : undefined;
}

/** A colour as OSC 12 takes it (a name, #rgb, rgb:r/g/b); nothing that could end the string. */
export function checkColor(spec: string): string | undefined {
  return /^[A-Za-z0-9#:/.]{1,64}$/.test(spec) ? spec : undefined;
}

export function trackPassthrough(term: Terminal, m: ExtraModes, onClipboard: (data: string) => void): void {
  term.parser.registerOscHandler(52, (data) => {
    const ok = checkClipboard(data);
    if (ok) onClipboard(ok);
    return true;
  });
  // OSC 12 may carry more colours for OSC 13 onward (";"); only the cursor's is kept. A query ("?")
  // is xterm's to handle.
  term.parser.registerOscHandler(12, (data) => {
    const spec = data.split(";")[0]!;
    if (spec !== "?") {
      const ok = checkColor(spec);
      if (ok) m.cursorColor = ok;
    }
    return false;
  });
  term.parser.registerOscHandler(112, () => {
    m.cursorColor = undefined;
    return false;
  });
}
