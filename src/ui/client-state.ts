// What belongs to one attached client rather than to the session, as in tmux (a prompt, a mode,
// a message are a client's): the prefix pressed, the status-line prompt, an overlay (help, a
// picker, the Dashboard), copy mode and its cursor, a notice, a mouse drag, display-panes. The
// session's focus and layout are shared by every client and live in the model.

import type { KeyEvent } from "../protocol/events";
import type { Overlay } from "./compositor";
import type { Prompt } from "./prompt";
import type { CopyMode } from "./copy-mode";
import type { DragState } from "./mouse";

/** An overlay with what its keys do: `items`, how many of the lines can be picked (the rest is the
 * selected item's preview). */
export type ClientOverlay = Overlay & {
  onKey?: (k: KeyEvent) => boolean;
  onPick?: (i: number) => void;
  items?: number;
  preview?: (i: number) => string[];
  onChar?: (ch: string, selected: number) => boolean;
};

export class ClientState {
  prefixPending = false;
  /** display-panes: each pane's number on screen until a key or PANE_NUMBERS_MS. */
  paneNumbers?: boolean;
  paneNumbersTimer: ReturnType<typeof setTimeout> | undefined;
  /** True while a command runs from a key the person pressed after the prefix. */
  fromPrefixKey = false;
  prompt?: Prompt;
  overlay?: ClientOverlay;
  copy?: CopyMode;
  message?: string;
  noticeTimer: ReturnType<typeof setTimeout> | undefined;
  drag?: DragState;

  /** Take over what `from` had open (a v1–v5 attach replaces the client and keeps its screen; the
   * next attach finds what the last client to leave had open). */
  takeOver(from: ClientState): void {
    this.prefixPending = false;
    this.overlay = from.overlay;
    this.copy = from.copy;
    // A y/n question was for whoever pressed the key; the next key from this client is not its answer.
    this.prompt = from.prompt?.confirm ? undefined : from.prompt;
    this.paneNumbers = undefined;
    from.stop();
    from.overlay = from.copy = from.prompt = from.drag = undefined;
    from.prefixPending = false;
  }

  stop(): void {
    clearTimeout(this.paneNumbersTimer);
    clearTimeout(this.noticeTimer);
    this.paneNumbersTimer = this.noticeTimer = undefined;
  }
}
