// Text typed into a pane as a paste. A program with bracketed paste on (DECSET 2004) takes
// everything between ESC[200~ and ESC[201~ as pasted text; an end marker inside the text would end
// the paste early and the rest would arrive as keystrokes (a shell would run it). Taking out the
// markers alone is not enough: the pane's terminal line discipline consumes some characters before
// the program reads them (^S/^Q with IXON, ^V, ^C/^\/^Z with ISIG, ^D, ^W, ^R, ^O, ^U and DEL in
// canonical mode), so `ESC[20^S1~` becomes a marker once the tty eats the ^S. So a bracketed
// paste carries no control character but tab, CR and LF: every other C0 (ESC included) is dropped,
// as xterm drops them, and so are DEL (the usual VERASE) and every C1 (the 8-bit CSI U+009B
// included). With no ESC or CSI left, no end marker can be in the text or be formed from it by
// anything a tty removes. pane_send, agent_send, run, handoff, fan prompts, the shim's
// paste-buffer and an attached client's paste all come through here.

/** The characters a bracketed paste never carries. */
const PASTE_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/** `text` with every control character but tab, CR and LF taken out. */
export function pasteText(text: string): string {
  return text.replace(PASTE_CONTROLS, "");
}

/** The bytes to write for a paste of `text`: bracketed, and safe to bracket, when the program asked for it. */
export function pasteBytes(text: string, bracketed: boolean): string {
  return bracketed ? `\x1b[200~${pasteText(text)}\x1b[201~` : text;
}
