// What a pane's shell says about itself through OSC 133 marks (shell-integration.ts writes the
// hooks that send them): whether it is at its prompt or running a command, where that command's
// line and output are in the buffer, and how it ended. Positions are xterm markers, so they follow
// the lines as the scrollback scrolls, and are gone once the lines are.
import type { Terminal } from "@xterm/headless";
import { activeRows, normalRows, RowMark, type CarriedMark } from "./history-view";
import { bufferLineGap } from "./wrapped-lines";

/** ShellMarks' state apart from its terminal (ShellMarks.carry). */
export interface CarriedShell {
  seen: boolean;
  state: ShellState;
  prompts: number;
  promptLine: number;
  promptShownAt: number;
  inputStart: { at: CarriedMark } | undefined;
  outputStart: { at: CarriedMark } | undefined;
  outputEnd: { at: CarriedMark } | undefined;
  command: string | undefined;
  sendsInputStart: boolean;
}

/** `done`: a command ended (D) and the next prompt (A) has not come yet. */
export type ShellState = "unknown" | "prompt" | "running" | "done";

interface Position {
  marker: RowMark;
}

/** Longest command text kept for events; a pasted script's text is not worth more. */
export const MAX_COMMAND_TEXT = 4096;
/** Most characters of output a `run` reply carries: its last ones (docs/limits.md). */
export const MAX_RUN_OUTPUT = 1024 * 1024;

/** How long after a prompt's A mark its B is waited for: a prompt that lost its B (a theme that
 * rewrites the prompt late) is taken as ready after this. */
export const B_GRACE_MS = 1000;

export interface FinishedCommand {
  command: string | undefined;
  exitCode: number | null;
  /** The command's output, its wrapped lines joined; cut to its last MAX_RUN_OUTPUT characters, or
   * to what the scrollback still holds, with `truncated`. */
  output(): { text: string; truncated: boolean };
}

/** What a pane's owner reads of its shell's marks (on the main thread, wherever the emulator runs). */
export interface ShellView {
  readonly seen: boolean;
  readonly state: ShellState;
  readonly prompts: number;
  readonly command: string | undefined;
  promptReadiness(expectB: boolean): "ready" | "typed" | "wait" | "busy";
  onStarted: (command: string | undefined) => void;
  onFinished: (done: FinishedCommand) => void;
}

/** The marks' state as plain data (what the emulator worker publishes). `inputAt`: where the
 * command line starts (null: no B mark yet; "gone": its line left the scrollback). */
export interface ShellSnapshot {
  seen: boolean;
  state: ShellState;
  prompts: number;
  command: string | undefined;
  sendsInputStart: boolean;
  promptShownAt: number;
  inputAt: { line: number; col: number } | null | "gone";
}

/** promptReadiness from a snapshot and the cursor (absolute line, column). */
export function readinessOf(s: ShellSnapshot, cursorLine: number, cursorX: number, expectB: boolean): "ready" | "typed" | "wait" | "busy" {
  if (s.state === "running") return "busy";
  if (s.state !== "prompt") return "wait";
  const at = s.inputAt;
  if (!at) return (expectB || s.sendsInputStart) && Date.now() - s.promptShownAt < B_GRACE_MS ? "wait" : "ready";
  if (at === "gone") return "ready";
  return cursorLine === at.line && cursorX === at.col ? "ready" : "typed";
}

export class ShellMarks implements ShellView {
  /** The shell has sent a mark: it has integration. */
  seen = false;
  state: ShellState = "unknown";
  /** Prompts shown: A marks, and B marks on another line than the last prompt mark (fish redraws
   * its prompt with B alone after a syntax error). A prompt after a typed line with no command
   * started means the shell ran nothing. */
  prompts = 0;
  private promptLine = -1;
  private promptShownAt = 0;
  /** Where the command line starts (B), while at the prompt. */
  private inputStart: Position | undefined;
  /** Where the running (or last) command's output starts (C), and where it ended (D). */
  private outputStart: Position | undefined;
  private outputEnd: Position | undefined;
  command: string | undefined;

  onStarted: (command: string | undefined) => void = () => {};
  onFinished: (done: FinishedCommand) => void = () => {};

  constructor(private readonly term: Terminal) {
    term.parser.registerOscHandler(133, (data) => {
      this.mark(data);
      return true;
    });
  }

  /** The shell has sent a B mark: it marks where its command line starts. */
  sendsInputStart = false;

  /**
   * Whether a command could be typed now: `ready` at an empty prompt; `typed` when text is
   * typed after it; `wait` while its prompt is still being drawn (after A, before the B that a
   * shell sending B marks, or `expectB`, will send, for up to B_GRACE_MS: typed before the
   * prompt, the text would land ahead of it); `busy` while a command runs.
   */
  promptReadiness(expectB: boolean): "ready" | "typed" | "wait" | "busy" {
    const buf = activeRows(this.term);
    return readinessOf(this.snapshot(), buf.baseY + buf.cursorY, buf.cursorX, expectB);
  }

  snapshot(): ShellSnapshot {
    const at = this.inputStart;
    return {
      seen: this.seen,
      state: this.state,
      prompts: this.prompts,
      command: this.command,
      sendsInputStart: this.sendsInputStart,
      promptShownAt: this.promptShownAt,
      inputAt: !at ? null : at.marker.isDisposed ? "gone" : { line: at.marker.line, col: at.marker.col },
    };
  }

  private cursorLine(): number {
    const buf = activeRows(this.term);
    return buf.baseY + buf.cursorY;
  }

  private here(): Position | undefined {
    const marker = RowMark.atCursor(this.term);
    return marker ? { marker } : undefined;
  }

  private drop(p: Position | undefined): undefined {
    p?.marker.dispose();
    return undefined;
  }

  private mark(data: string): void {
    const [kind, arg] = data.split(";", 2);
    switch (kind) {
      case "A":
        this.seen = true;
        this.prompts++;
        this.state = "prompt";
        this.promptShownAt = Date.now();
        this.inputStart = this.drop(this.inputStart);
        this.promptLine = this.cursorLine();
        return;
      case "B": {
        this.seen = true;
        this.sendsInputStart = true;
        this.state = "prompt";
        const before = this.inputStart && !this.inputStart.marker.isDisposed ? this.inputStart.marker.line : this.promptLine;
        this.drop(this.inputStart);
        this.inputStart = this.here();
        if (this.cursorLine() !== before) this.prompts++;
        this.promptLine = this.cursorLine();
        return;
      }
      case "C": {
        this.seen = true;
        if (this.state === "running") return;
        this.state = "running";
        this.drop(this.outputStart);
        this.outputEnd = this.drop(this.outputEnd);
        this.outputStart = this.here();
        this.command = this.inputStart && this.outputStart ? commandText(this.term, this.inputStart, this.outputStart) : undefined;
        this.inputStart = this.drop(this.inputStart);
        this.onStarted(this.command);
        return;
      }
      case "D": {
        this.seen = true;
        if (this.state !== "running") return;
        this.state = "done";
        this.outputEnd = this.here();
        const exitCode = arg !== undefined && /^\d{1,3}$/.test(arg) ? Number(arg) : null;
        const start = this.outputStart;
        const end = this.outputEnd;
        this.onFinished({ command: this.command, exitCode, output: () => outputBetween(this.term, start, end) });
        return;
      }
    }
  }

  dispose(): void {
    for (const p of [this.inputStart, this.outputStart, this.outputEnd]) p?.marker.dispose();
  }

  /** The marks' state apart from the terminal (taken before it is put away; carried() makes
   * them again in the terminal made after it). */
  carry(): CarriedShell {
    const place = (p: Position | undefined) => (p ? { at: p.marker.carry() } : undefined);
    return {
      seen: this.seen,
      state: this.state,
      prompts: this.prompts,
      promptLine: this.promptLine,
      promptShownAt: this.promptShownAt,
      inputStart: place(this.inputStart),
      outputStart: place(this.outputStart),
      outputEnd: place(this.outputEnd),
      command: this.command,
      sendsInputStart: this.sendsInputStart,
    };
  }

  static carried(term: Terminal, c: CarriedShell): ShellMarks {
    const m = new ShellMarks(term);
    const position = (p: { at: CarriedMark } | undefined): Position | undefined => (p ? { marker: RowMark.carried(term, p.at) } : undefined);
    m.seen = c.seen;
    m.state = c.state;
    m.prompts = c.prompts;
    m.promptLine = c.promptLine;
    m.promptShownAt = c.promptShownAt;
    m.inputStart = position(c.inputStart);
    m.outputStart = position(c.outputStart);
    m.outputEnd = position(c.outputEnd);
    m.command = c.command;
    m.sendsInputStart = c.sendsInputStart;
    return m;
  }

  /** The last finished command's output, as its FinishedCommand says. */
  lastOutput(): { text: string; truncated: boolean } {
    return outputBetween(this.term, this.outputStart, this.outputEnd);
  }

  /** Forget what the last program said (pane_respawn starts another in the pane). */
  reset(): void {
    this.dispose();
    this.inputStart = this.outputStart = this.outputEnd = undefined;
    this.seen = false;
    this.state = "unknown";
    this.prompts = 0;
    this.promptLine = -1;
    this.promptShownAt = 0;
    this.command = undefined;
    this.sendsInputStart = false;
  }
}

/** The command line: from where it started (B) to the end of the line before the output (C),
 * wrapped lines joined. */
function commandText(term: Terminal, from: Position, to: Position): string | undefined {
  if (from.marker.isDisposed || to.marker.isDisposed) return undefined;
  const text = textBetween(term, from.marker.line, from.marker.col, to.marker.line, 0, MAX_COMMAND_TEXT).text.replace(/\n$/, "");
  return text.trim() ? text.trim() : undefined;
}

function outputBetween(term: Terminal, start: Position | undefined, end: Position | undefined): { text: string; truncated: boolean } {
  if (!end || end.marker.isDisposed) return { text: "", truncated: true };
  const lost = !start || start.marker.isDisposed;
  const r = textBetween(term, lost ? 0 : start.marker.line, lost ? 0 : start.marker.col, end.marker.line, end.marker.col, MAX_RUN_OUTPUT);
  return { text: r.text, truncated: lost || r.truncated };
}

/**
 * The text from (line, col) to (endLine, endCol) of the normal buffer: a line that wrapped onto
 * the next is joined to it, other lines end with \n and lose their trailing blanks. At most `max`
 * characters, the last ones.
 */
export function textBetween(term: Terminal, line: number, col: number, endLine: number, endCol: number, max: number): { text: string; truncated: boolean } {
  const buf = normalRows(term);
  const parts: string[] = [];
  let size = 0;
  let truncated = false;
  // Walk backwards from the end so a huge output costs only the `max` characters kept.
  for (let y = endLine; y >= line; y--) {
    const row = buf.getLine(y);
    if (!row) continue;
    const next = y < endLine ? buf.getLine(y + 1) : undefined;
    const continues = next?.isWrapped === true;
    const from = y === line ? col : 0;
    const to = y === endLine ? endCol : continues && bufferLineGap(row, next!) ? term.cols - 1 : term.cols;
    let piece = row.translateToString(!continues && y !== endLine, from, to);
    if (y === endLine) piece = piece.replace(/\s+$/, "");
    if (y < endLine && !continues) piece += "\n";
    parts.push(piece);
    size += piece.length;
    if (size >= max) {
      truncated = size > max || y > line;
      break;
    }
  }
  const text = parts.reverse().join("");
  return { text: text.length > max ? text.slice(text.length - max) : text, truncated };
}
