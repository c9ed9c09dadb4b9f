// A desktop notification for the attached terminal: OSC 9 (iTerm2, WezTerm, kitty, foot…) and
// OSC 777 notify (urxvt, VTE, Ghostty), optionally after a bell. The text comes from others (a
// script's notify, an agent's detail): control characters would end the OSC early or inject
// sequences, so they become spaces.
import { controlChars, unsafeChars } from "../safe-text";

/** `s` with control, bidi and line-separator characters made spaces: safe inside an OSC and on the status line. */
export const notificationText = (s: string) => s.replace(controlChars(), " ").replace(unsafeChars(), " ");

/** The bytes for a notification: `kinds` names which of bell, osc9 and osc777 to send. */
export function notificationBytes(kinds: ReadonlySet<string>, title: string, body: string): string {
  const [t, b] = [notificationText(title), notificationText(body)];
  return (
    (kinds.has("bell") ? "\x07" : "") +
    (kinds.has("osc9") ? `\x1b]9;${b ? `${t}: ${b}` : t}\x07` : "") +
    (kinds.has("osc777") ? `\x1b]777;notify;${t.replaceAll(";", ",")};${b}\x07` : "")
  );
}
