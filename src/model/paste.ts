// Text typed into a pane as a paste. A program with bracketed paste on (DECSET 2004) takes
// everything between ESC[200~ and ESC[201~ as pasted text; an end marker inside the text would end
// the paste early and the rest would arrive as keystrokes (a shell would run it). So every end
// marker is taken out, also those that taking one out would form (`ESC[20ESC[201~1~` holds a second
// one around the first): removal runs to a fixed point, in one pass with a stack, so nested
// markers cost linear time. The 8-bit form (CSI as U+009B) goes too. pane_send, agent_send, run,
// handoff, the shim's paste-buffer and an attached client's paste all come through here.

const ESC = 0x1b;
const CSI8 = 0x9b;
/** The end marker after its introducer (ESC [ or CSI): `201~`. */
const TAIL = [0x32, 0x30, 0x31, 0x7e];
const UTF16 = new TextDecoder("utf-16le");

/** `text` with no end-of-paste marker left in it, however the markers nest or split. */
export function withoutPasteEnd(text: string): string {
  if (!text.includes("\x1b") && !text.includes("\x9b")) return text;
  const out = new Uint16Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    out[n++] = text.charCodeAt(i);
    // Only a `~` can complete a marker; the kept text never holds one, so only its end is checked.
    if (out[n - 1] !== 0x7e) continue;
    if (n >= 6 && out[n - 6] === ESC && out[n - 5] === 0x5b && endsWithTail(out, n)) n -= 6;
    else if (n >= 5 && out[n - 5] === CSI8 && endsWithTail(out, n)) n -= 5;
  }
  return n === text.length ? text : UTF16.decode(out.subarray(0, n));
}

function endsWithTail(out: Uint16Array, n: number): boolean {
  for (let k = 0; k < TAIL.length; k++) if (out[n - TAIL.length + k] !== TAIL[k]) return false;
  return true;
}

/** The bytes to write for a paste of `text`: bracketed when the program asked for it. */
export function pasteBytes(text: string, bracketed: boolean): string {
  return bracketed ? `\x1b[200~${withoutPasteEnd(text)}\x1b[201~` : text;
}
