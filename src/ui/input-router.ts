// Where what the person does goes: a key to the prompt, a popup, the prefix table, an overlay,
// copy mode, a root binding or the focused pane (every pane of a synchronized tab); a paste, the
// mouse, a resize, focus reports. The state it routes by lives on the Interface.

import type { Pane } from "../model/pane";
import type { KeyEvent, TermEvent } from "../protocol/events";
import { encodeEvent, typesAsText } from "../model/key-encoder";
import { keyName } from "./keymap-names";
import { promptKey, insertText } from "./prompt";
import { copyKey, searchCopy } from "./copy-mode";
import { runKeyBinding } from "./ui-actions";
import { handleMouse } from "./mouse";
import type { Interface } from "./interface";

/** How long a typed key waits for its pane's echo, to draw it in the same turn (Pane.readEcho):
 * a program that echoes at once (a shell, cat, an editor) takes ~0.1–0.3 ms here; one that takes
 * longer is not waited for again until it answers a key within this time. */
const ECHO_WAIT_MS = 1;

/** The key just typed into `pane`: its echo drawn in this turn, written ahead where it can be. */
const readEcho = (ui: Interface, pane: Pane) => pane.readEcho(ECHO_WAIT_MS, (echo) => ui.frames.echoAhead(pane, echo));

/** One event from the attached client. */
export function routeEvent(ui: Interface, ev: TermEvent): void {
  if (typeof ev === "object" && "Resize" in ev) {
    const [cols, rows] = ev.Resize;
    ui.session.setClientSize(cols, rows);
    ui.invalidate();
    return;
  }
  if (typeof ev === "object" && "Key" in ev) {
    if (ev.Key.kind === "Release") return;
    return routeKey(ui, ev.Key);
  }
  if (typeof ev === "object" && "Mouse" in ev) {
    if (ui.popup()) return; // the layout under a popup is not for clicking
    return handleMouse(ui, ev.Mouse);
  }
  if (ev === "FocusGained" || ev === "FocusLost") {
    const v = ui.served;
    return v ? ui.clients.focus(v, ev === "FocusGained", ui.focusedPane()) : ui.clients.paneFocus.outer(ev === "FocusGained", ui.focusedPane());
  }
  if (typeof ev === "object" && "Paste" in ev) {
    if (ui.prompt) {
      insertText(ui.prompt, ev.Paste);
      return ui.invalidate();
    }
    if (ui.overlay || ui.copy) return;
    return typeIn(ui, ev);
  }
  toPane(ui, ev);
}

/** What the person types: to the focused pane, or to every pane of a synchronized tab (each
 * encoded for its own modes), as tmux's synchronize-panes. */
export function typeIn(ui: Interface, ev: TermEvent): void {
  const focused = ui.focusedPane();
  const ws = ui.session.currentWorkspace;
  const tab = ws.tabs[ws.active];
  if (!focused || !tab || !ui.syncTabs.has(tab.id) || ui.popup()) return toPane(ui, ev, focused);
  for (const r of ui.session.rects(tab)) {
    const p = ui.session.panes.get(r.pane);
    if (p && p !== focused) toPane(ui, ev, p);
  }
  toPane(ui, ev, focused); // last: the typed pane's echo is the one drawn at once
}

/** Hand an event to the focused pane, encoded for its modes. */
export function toPane(ui: Interface, ev: TermEvent, pane = ui.focusedPane()): void {
  // A key in a pane held after its program failed closes it (its status was there to read).
  if (pane?.held && typeof ev === "object" && "Key" in ev && ev.Key.kind !== "Release") return ui.session.dismissHeld(pane.id);
  if (!pane || pane.exited) return;
  const bytes = encodeEvent(ev, pane.emulator.modes);
  if (!bytes) return;
  pane.write(bytes);
  typedInto(ui, pane);
}

/** The person typed into `pane`: its next output is the echo they wait for. */
function typedInto(ui: Interface, pane: Pane): void {
  // Typing into a pane is the person attending to it (an agent's `done` becomes `idle`).
  const typed = ui.frames.lastTyped();
  if (performance.now() - typed.at > 500 || typed.pane !== pane.id) ui.session.bus.emit({ type: "pane_input", pane: pane.id });
  ui.frames.typedInto(pane.id);
}

/**
 * Printable ASCII (`bytes`, space to tilde) typed where each of its keys would reach the focused
 * pane as itself (routeKey → typeIn → toPane): written there as it came, without making each key an
 * event, naming it and encoding it again, which on a long-running server is most of a key's cost
 * before its echo. False, with nothing done, whenever a key could mean anything else: a prompt, a
 * popup, the prefix or a root binding on one of the keys, display-panes, an overlay, copy mode, a
 * message a key clears, a synchronized tab, a held or exited pane, a program that wants every key
 * as an escape code.
 */
export function typeStraight(ui: Interface, bytes: Uint8Array): boolean {
  if (ui.message !== undefined || ui.prompt || ui.prefixPending || ui.paneNumbers || ui.overlay || ui.copy || ui.popup()) return false;
  const ws = ui.session.currentWorkspace;
  const tab = ws.tabs[ws.active];
  const pane = tab && ui.session.panes.get(tab.focused);
  if (!pane || pane.held || pane.exited || ui.syncTabs.has(tab.id) || !typesAsText(pane.emulator.modes)) return false;
  const { prefix, root } = ui.keymap;
  for (let i = 0; i < bytes.length; i++) {
    const name = bytes[i] === 0x20 ? "Space" : String.fromCharCode(bytes[i]!);
    if (name === prefix || root.has(name)) return false;
  }
  pane.write(bytes);
  typedInto(ui, pane);
  readEcho(ui, pane);
  return true;
}

function routeKey(ui: Interface, k: KeyEvent): void {
  const hadMessage = ui.message !== undefined;
  ui.message = undefined;
  if (hadMessage) ui.invalidate();
  const name = keyName(k);
  if (ui.prompt) {
    const p = ui.prompt;
    const r = promptKey(p, k);
    if (r !== "edit") ui.prompt = undefined;
    if (r === "submit") p.submit(p.text);
    if (r === "cancel") p.cancel?.();
    return ui.invalidate();
  }
  const popup = ui.popup();
  if (popup) return popupKey(ui, popup, k);
  if (ui.paneNumbers) {
    // display-panes: a digit focuses that pane; any key ends the numbers and is used up, as in tmux.
    ui.showPaneNumbers(false);
    const tab = ui.session.activeTab(ui.session.currentWorkspace);
    const id = name && /^[0-9]$/.test(name) ? ui.session.rects(tab)[Number(name)]?.pane : undefined;
    if (id !== undefined) ui.session.focusPane(id);
    return;
  }
  if (ui.prefixPending) {
    ui.prefixPending = false;
    ui.invalidate();
    const cmd = name ? ui.keymap.prefixTable.get(name) : undefined;
    if (!cmd) return;
    ui.fromPrefixKey = true;
    try {
      runKey(ui, cmd);
    } finally {
      ui.fromPrefixKey = false;
    }
    return;
  }
  if (name && name === ui.keymap.prefix) {
    ui.prefixPending = true;
    return ui.invalidate();
  }
  if (ui.overlay) {
    overlayKey(ui, k);
    return ui.invalidate();
  }
  if (ui.copy) {
    copyModeKey(ui, k);
    return ui.invalidate();
  }
  const root = name ? ui.keymap.root.get(name) : undefined;
  if (root) return runKey(ui, root);
  typeIn(ui, { Key: k });
  const typed = ui.focusedPane();
  if (typed) readEcho(ui, typed);
}

/** A command from a key: the ones that can't be undone ask y/n first (keys.toml `confirm`). */
function runKey(ui: Interface, command: string): void {
  runKeyBinding(ui, command);
  ui.invalidate();
}

/** A key while a popup is open goes to it, as in tmux, where Esc and C-c close it once its
 * program has exited, and at any time when only a key closes it. */
function popupKey(ui: Interface, popup: Pane, k: KeyEvent): void {
  const ws = ui.session.workspaces[ui.session.current]!;
  const tab = ws.tabs[ws.active]!;
  const name = keyName(k);
  const closing = name === "Esc" || name === "C-c";
  if (closing && (popup.exited || tab.popup!.close === "key")) {
    ui.session.closePopup(tab);
    return ui.invalidate();
  }
  toPane(ui, { Key: k });
}

function overlayKey(ui: Interface, k: KeyEvent): void {
  const o = ui.overlay!;
  const c = k.code;
  const ch = typeof c === "object" && "Char" in c ? c.Char : undefined;
  const rows = Math.max(1, ui.session.size.rows - 4);
  const move = (d: number) => {
    if (o.selected !== undefined) {
      o.selected = Math.max(0, Math.min((o.items ?? o.lines.length) - 1, o.selected + d));
      if (o.preview) o.lines = [...o.lines.slice(0, o.items), ...o.preview(o.selected)];
      if (o.selected < o.scroll) o.scroll = o.selected;
      if (o.selected >= o.scroll + rows) o.scroll = o.selected - rows + 1;
    } else o.scroll = Math.max(0, Math.min(Math.max(0, o.lines.length - rows), o.scroll + d));
  };
  if (ch && o.onChar && o.selected !== undefined && o.onChar(ch, o.selected)) ui.overlay = undefined;
  else if (c === "Esc" || ch === "q") ui.overlay = undefined;
  else if (c === "Up" || ch === "k") move(-1);
  else if (c === "Down" || ch === "j") move(1);
  else if (c === "PageUp") move(-rows);
  else if (c === "PageDown" || ch === " ") move(rows);
  else if (c === "Enter" && o.onPick && o.selected !== undefined) {
    ui.overlay = undefined;
    o.onPick(o.selected);
  } else if (ch && /^[1-9]$/.test(ch) && o.onPick && !o.preview && Number(ch) <= o.lines.length) {
    ui.overlay = undefined;
    o.onPick(Number(ch) - 1);
  }
}

function copyModeKey(ui: Interface, k: KeyEvent): void {
  const cm = ui.copy!;
  const pane = ui.session.panes.get(cm.pane);
  if (!pane) {
    ui.copy = undefined;
    return;
  }
  const a = copyKey(cm, pane.emulator, k, ui.keymap.modeKeys);
  if (a.kind === "exit") ui.copy = undefined;
  else if (a.kind === "copy") {
    ui.copied(a.text);
    ui.copy = undefined;
  } else if (a.kind === "search") {
    ui.ask(a.forward ? "search down" : "search up", cm.search ?? "", (q) => {
      if (ui.copy === cm) searchCopy(cm, pane.emulator, q, a.forward);
    });
  }
}
