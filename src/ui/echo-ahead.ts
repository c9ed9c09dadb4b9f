// Whether a typed key's echo, read from the pane's PTY and not parsed yet, is sure to print as
// plain text at the pane's cursor (frame-scheduler.ts echoAhead writes it to the client's terminal
// ahead of its frame, as tmux writes a printed cell): printable ASCII, into a live emulator whose
// parser is between sequences, in the default pen, without insert mode, another character set or
// synchronized output. Anything else is drawn by the frame as usual. This runs on the echo's way,
// so it reads xterm's state directly; a state of another shape (an xterm upgrade) reads as "not
// sure", and the frame draws the echo.
import type { Terminal } from "@xterm/headless";
import type { PaneEmulator } from "../model/pane-emulator";
import { Emulator } from "../model/emulator";
import { RestingEmulator } from "../model/resting-emulator";
import { coreOf } from "../model/xterm-internals";

/** The parser's state between sequences (xterm's ParserState.GROUND). */
const GROUND = 0;

/** What of xterm's state the check reads. */
interface PrintState {
  _inputHandler?: {
    _curAttrData?: { fg?: number; bg?: number };
    _parser?: { currentState?: number };
    _utf8Decoder?: { interim?: Uint8Array };
    _parseStack?: { paused?: boolean };
  };
  _charsetService?: { charset?: unknown };
  coreService?: { modes?: { insertMode?: boolean }; decPrivateModes?: { synchronizedOutput?: boolean } };
}

/** The cursor (x, y on the screen) the echo prints from, or undefined when it may not print plainly. */
export function plainEchoAt(emulator: PaneEmulator, bytes: Uint8Array): { x: number; y: number } | undefined {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x7e) return undefined;
  const term = liveTerm(emulator);
  const core = term && (coreOf(term) as PrintState | undefined);
  const input = core?._inputHandler;
  const pen = input?._curAttrData;
  if (!term || !core || pen?.fg !== 0 || pen.bg !== 0 || !core._charsetService || core._charsetService.charset !== undefined) return undefined;
  if (core.coreService?.modes?.insertMode !== false || core.coreService.decPrivateModes?.synchronizedOutput !== false) return undefined;
  if (input!._parser?.currentState !== GROUND || input!._utf8Decoder?.interim?.[0] !== 0 || input!._parseStack?.paused !== false) return undefined;
  const b = term.buffer.active;
  return { x: b.cursorX, y: b.cursorY };
}

/** The emulator's terminal when it is on this thread and awake (a resting one is not woken). */
function liveTerm(e: PaneEmulator): Terminal | undefined {
  if (e instanceof Emulator) return e.term;
  if (e instanceof RestingEmulator && !e.resting) return e.live().term;
  return undefined;
}
