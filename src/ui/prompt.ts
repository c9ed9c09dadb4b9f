// A one-line prompt drawn on the status line: text (rename tab, new workspace, search), or a y/n
// question (confirm before quit or close, as tmux's confirm-before).

import { type KeyEvent, parseMods, CONTROL, ALT } from "../protocol/events";
import { charClass } from "../safe-text";

const c0AndDel = () => charClass(["c0", "del"], "g");

export interface Prompt {
  label: string;
  text: string;
  /** Cursor position in code points. */
  pos: number;
  submit(text: string): void;
  cancel?(): void;
  /** A y/n question: the next key answers it, `y` yes and anything else no. */
  confirm?: boolean;
  /** Tab completes the text (prefix :): the new text, and the choices shown when there are several. */
  complete?(text: string): { line: string; choices: string[] };
  /** The choices the last Tab found, shown after the text. */
  choices?: string[];
}

export function newPrompt(label: string, initial: string, submit: (t: string) => void, cancel?: () => void): Prompt {
  return { label, text: initial, pos: [...initial].length, submit, cancel };
}

export function newConfirm(question: string, yes: () => void, no?: () => void): Prompt {
  return { label: question, text: "", pos: 0, submit: yes, confirm: true, ...(no ? { cancel: no } : {}) };
}

/** Apply a key; returns "submit", "cancel" or "edit". */
export function promptKey(p: Prompt, k: KeyEvent): "submit" | "cancel" | "edit" {
  const mods = parseMods(k.modifiers);
  const chars = [...p.text];
  const c = k.code;
  if (p.confirm) {
    const plain = typeof c === "object" && "Char" in c && !(mods & (CONTROL | ALT));
    return plain && (c.Char === "y" || c.Char === "Y") ? "submit" : "cancel";
  }
  if (c === "Enter") return "submit";
  if (c === "Esc") return "cancel";
  p.choices = undefined;
  if (c === "Tab" && p.complete) {
    const r = p.complete(p.text);
    p.text = r.line;
    p.pos = [...r.line].length;
    p.choices = r.choices.length ? r.choices.slice(0, 40) : undefined;
    return "edit";
  }
  if (typeof c === "object" && "Char" in c && mods & CONTROL) {
    switch (c.Char) {
      case "c": case "g": return "cancel";
      case "a": p.pos = 0; break;
      case "e": p.pos = chars.length; break;
      case "u": p.text = chars.slice(p.pos).join(""); p.pos = 0; break;
      case "k": p.text = chars.slice(0, p.pos).join(""); break;
      case "w": {
        let i = p.pos;
        while (i > 0 && chars[i - 1] === " ") i--;
        while (i > 0 && chars[i - 1] !== " ") i--;
        p.text = [...chars.slice(0, i), ...chars.slice(p.pos)].join("");
        p.pos = i;
        break;
      }
    }
    return "edit";
  }
  if (typeof c === "object" && "Char" in c && !(mods & ALT)) {
    insertText(p, c.Char);
    return "edit";
  }
  switch (c) {
    case "Backspace":
      if (p.pos > 0) {
        chars.splice(p.pos - 1, 1);
        p.text = chars.join("");
        p.pos--;
      }
      break;
    case "Delete":
      if (p.pos < chars.length) {
        chars.splice(p.pos, 1);
        p.text = chars.join("");
      }
      break;
    case "Left": p.pos = Math.max(0, p.pos - 1); break;
    case "Right": p.pos = Math.min(chars.length, p.pos + 1); break;
    case "Home": p.pos = 0; break;
    case "End": p.pos = chars.length; break;
  }
  return "edit";
}

export function insertText(p: Prompt, s: string): void {
  if (p.confirm) return; // a paste is no answer
  const clean = s.replace(c0AndDel(), "");
  const chars = [...p.text];
  const add = [...clean];
  chars.splice(p.pos, 0, ...add);
  p.text = chars.join("");
  p.pos += add.length;
}
