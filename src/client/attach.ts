// The attach client. Locally it names its terminal and the server drives it (a DIRECT frame):
// the client sets the terminal up, forwards resizes and waits for EXIT. Otherwise (an older
// server, -H HOST, WS_ATTACH_DIRECT=0) it is a thin raw-mode pump: terminal bytes → crossterm
// events → EVENT frames; OUTPUT frames → the terminal. Whatever ends the session (EXIT, a
// dropped connection, a signal, a crash), the terminal is restored.

import { fstatSync, writeSync } from "node:fs";
import type { Socket } from "bun";
import { BUILD } from "../build-info";
import { FrameDecoder, FRAME_DIRECT, FRAME_KEYS, FRAME_OUTPUT, FRAME_EXIT, FRAME_TERMINAL, encodeEvent, encodeFrame, frameText, type ExitNotice } from "../protocol/frames";
import { ESC_TIMEOUT_MS, InputParser } from "../protocol/input-parser";
import { KEYS_QUERY, KeyProbe, isKeyProtocol, keysOff, keysOn, probeMs, type KeyProtocol } from "../protocol/key-protocol";
import { TERMINAL_QUERY, TerminalAsk, asksTerminal } from "../protocol/terminal-report";
import { connectClient, connectsLocally, serverName } from "./connect";
import { isTerminalPath, ttyId } from "../protocol/tty-id";
import { connectFailure, formatMs } from "./stream";
import { safeText } from "../safe-text";
import { ownTerminal } from "../platform";
import { hop } from "../platform/hop-trace";

// Alternate screen, mouse (press/release/drag, SGR coordinates), bracketed paste, focus events.
// Keys with all their modifiers (so S-Enter is not Enter) come after, from asking the terminal
// which keyboard protocol it has (key-protocol.ts): the server asks when it drives the terminal,
// this client when it pumps it.
export const ENTER = "\x1b[?1049h\x1b[H\x1b[2J\x1b[?1000h\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h";
// All of that undone, and what the server may have set since to follow the focused pane
// (any-motion mouse, the application keypad). The keyboard protocol turned on is undone before
// it (keysOff): kitty's flags are popped before the alternate screen is left, as they were
// pushed on its stack.
export const LEAVE = "\x1b>\x1b[?1003l\x1b[?1004l\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?1000l\x1b[?2026l\x1b[0m\x1b[0 q\x1b[?25h\x1b[?1049l";
/** What an older server's DIRECT (one that does not ask the terminal) leaves to this client: both
 * protocols turned on blindly, as before query-first detection. */
const BLIND: readonly KeyProtocol[] = ["kitty", "modify-other-keys"];

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Write all of `data` to a tty fd. The tty may be non-blocking (EAGAIN) and
 * writes may be partial; the client has nothing better to do than wait.
 */
export function writeAll(fd: number, data: string | Uint8Array): void {
  let buf = typeof data === "string" ? Buffer.from(data) : data;
  for (let tries = 0; buf.length && tries < 5000; ) {
    try {
      const n = writeSync(fd, buf);
      buf = buf.subarray(n);
      tries = 0;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      tries++;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

export interface AttachOptions {
  socketPath: string;
  open?: { cwd: string; command?: string[]; name?: string; project?: string };
  /** A --local server, which ends with this client: there is nothing to come back to. */
  local?: boolean;
  /** How long the server may take to answer the attach (0 or absent: no limit). */
  replyMs?: number;
  /** How long a lone Esc waits for the rest of a sequence (keys.toml escape-time); default ESC_TIMEOUT_MS. */
  escapeMs?: number;
  /** Attach beside the clients already attached (v6 `share`); otherwise replace them. */
  share?: boolean;
}

/** What a refused attach's text may hold (the rest is dropped): a line or two of the server's. */
const MAX_REFUSAL = 64 * 1024;

export class AttachRefused extends Error {}

/** A refused attach's words: a plain `error: …` line, or a v6 JSON error's message. */
function refusalText(text: string): string {
  const t = text.trim();
  if (t.startsWith("{")) {
    try {
      const j = JSON.parse(t.split("\n")[0]!) as { message?: unknown };
      if (typeof j.message === "string") return j.message;
    } catch {}
  }
  return t.replace(/^error: /, "");
}

/** runAttach's status when the server quit for `ws restart`: the caller attaches again. */
export const RESTARTING = 75;

/** The terminal device this client runs in, when the server may drive it itself (attach's v6
 * `tty`): a local server, stdin and stdout the same terminal, and not WS_ATTACH_DIRECT=0. */
function directTty(): { tty: string; tty_id: string } | undefined {
  if (process.env.WS_ATTACH_DIRECT === "0" || !connectsLocally()) return undefined;
  const path = ownTerminal();
  if (!path || !isTerminalPath(path)) return undefined;
  try {
    return { tty: path, tty_id: ttyId(fstatSync(0)) };
  } catch {
    return undefined;
  }
}

export function runAttach(o: AttachOptions): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  if (!stdin.isTTY || !stdout.isTTY) return Promise.reject(new AttachRefused("ws attach needs a terminal (stdin and stdout must be a tty)"));

  return new Promise((resolve, reject) => {
    let sock: Socket<undefined> | undefined;
    let first = true;
    let entered = false;
    let done = false;
    let refusal = "";
    /** The server drives the terminal (DIRECT): this client only forwards resizes. */
    let direct = false;
    let pumping = false;
    const refused = () => `ws: ${refusalText(refusal)}`;
    const decoder = new FrameDecoder();
    /** Keyboard protocols on in the terminal, which restore() undoes. */
    let keys: readonly KeyProtocol[] = [];
    let probe: KeyProbe | undefined;
    let terminalAsk: TerminalAsk | undefined;
    const parser = new InputParser((r) => {
      probe?.reply(r);
      terminalAsk?.reply(r);
    });
    let escTimer: ReturnType<typeof setTimeout> | undefined;
    const outQueue: Uint8Array[] = [];

    const restore = () => {
      if (!entered) return;
      entered = false;
      probe?.stop();
      terminalAsk?.stop();
      try {
        writeAll(1, keysOff(keys) + LEAVE);
      } catch {}
      try {
        stdin.setRawMode(false);
      } catch {}
    };

    let replyTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (code: number, message?: string) => {
      if (done) return;
      done = true;
      clearTimeout(replyTimer);
      try {
        clearTimeout(escTimer);
        restore();
        stdin.off("data", onInput);
        stdout.off("resize", onResize);
        for (const sig of SIGNALS) process.off(sig, onSignal);
        process.off("uncaughtException", onCrash);
        stdin.pause();
        try {
          sock?.end();
        } catch {}
        // The message may carry the server's words (a refusal, an EXIT notice): terminal-safe.
        if (message) writeAll(code ? 2 : 1, safeText(message.endsWith("\n") ? message : message + "\n"));
      } catch {
        // Nothing here may keep the process from ending.
      } finally {
        resolve(code);
      }
    };

    const send = (bytes: Uint8Array) => {
      if (!sock || done) return;
      if (outQueue.length) return void outQueue.push(bytes);
      const n = sock.write(bytes);
      if (n < bytes.length) outQueue.push(bytes.subarray(Math.max(0, n)));
    };

    const sendEvents = (events: unknown[]) => {
      for (const ev of events) send(encodeEvent(ev));
    };

    const onInput = (chunk: Buffer) => {
      hop("client-read");
      clearTimeout(escTimer);
      sendEvents(parser.feed(chunk));
      hop("client-sent");
      if (parser.pending) escTimer = setTimeout(() => sendEvents(parser.flush()), o.escapeMs ?? ESC_TIMEOUT_MS);
    };
    const onResize = () => sendEvents([{ Resize: [stdout.columns, stdout.rows] }]);
    const SIGNALS = ["SIGTERM", "SIGHUP", "SIGINT", "SIGQUIT"] as const;
    const onSignal = (sig: string) => finish(sig === "SIGHUP" ? 129 : 143, `ws: ${sig}, detaching`);
    const onCrash = (err: Error) => finish(1, `ws: attach client crashed: ${err?.stack ?? err}`);

    // The server may drive the terminal itself (a DIRECT frame says it does): the screen is set
    // up before it is asked, so nothing it writes comes before ENTER.
    const tty = directTty();
    const enterScreen = () => {
      if (entered) return;
      entered = true;
      stdin.setRawMode(true);
      writeAll(1, ENTER);
      stdout.on("resize", onResize);
    };
    const turnOn = (ps: readonly KeyProtocol[]) => {
      if (done || !entered) return;
      keys = [...keys, ...ps];
      writeAll(1, ps.map(keysOn).join(""));
    };
    // This client reads the terminal, so it asks; the answers come back through `parser`. Its
    // colours and version go to the server in a TERMINAL frame (the keyboard's DA1 ends them).
    const pumpInput = () => {
      stdin.on("data", onInput);
      stdin.resume();
      probe = new KeyProbe((p) => turnOn([p]));
      const ask = asksTerminal(process.env.TERM);
      if (ask) terminalAsk = new TerminalAsk((r) => send(encodeFrame(FRAME_TERMINAL, JSON.stringify(r))), probeMs());
      writeAll(1, (ask ? TERMINAL_QUERY : "") + KEYS_QUERY);
    };

    const onFrames = (bytes: Uint8Array) => {
      let frames;
      try {
        frames = decoder.push(bytes);
      } catch (e) {
        return finish(1, `ws: broken attach stream: ${(e as Error).message}`);
      }
      for (const f of frames) {
        if (f.kind === FRAME_DIRECT) {
          direct = true;
          // A server that asks the terminal says so; an older one leaves the keys to this client.
          if (!frameText(f).includes('"keys":"ask"')) turnOn(BLIND);
        } else if (f.kind === FRAME_KEYS) {
          const p = frameText(f);
          if (isKeyProtocol(p) && !keys.includes(p)) keys = [...keys, p];
        } else if (!direct && !pumping) {
          pumping = true;
          pumpInput();
        }
        if (f.kind === FRAME_OUTPUT) {
          hop("client-frame");
          writeAll(1, f.payload);
          hop("client-written");
        } else if (f.kind === FRAME_EXIT) {
          let n: ExitNotice = { reason: "quit" };
          try {
            n = JSON.parse(frameText(f));
          } catch {}
          if (o.local && n.reason === "detached") return finish(0, "detached; the --local server ends with this session");
          if (n.restart === true && !o.local) return finish(RESTARTING, n.message ?? "the ws server is restarting");
          return finish(0, n.message ?? `[${n.reason}]`);
        }
      }
    };

    for (const sig of SIGNALS) process.on(sig, onSignal);
    process.on("uncaughtException", onCrash);

    connectClient(o.socketPath, {
      open(s) {
        sock = s as unknown as Socket<undefined>;
        if (o.replyMs)
          replyTimer = setTimeout(() => {
            if (first) finish(1, `ws: the ws server on ${serverName(o.socketPath)} did not answer within ${formatMs(o.replyMs!)} (is it stopped or stuck? --timeout MS waits longer)`);
          }, o.replyMs);
        if (tty) enterScreen();
        // v6 for `share`; without it, the v1 line every server since the spec's first takes.
        const line = JSON.stringify({ v: o.share ? 6 : 1, type: "attach", ...(o.share ? { share: true } : {}), cols: stdout.columns, rows: stdout.rows, build: BUILD, ...(process.env.TERM ? { term: process.env.TERM } : {}), ...tty, ...(tty ? { keys: "ask" } : {}), ...(o.open ? { open: o.open } : {}) });
        send(Buffer.from(line + "\n"));
      },
      data(_s, bytes) {
        if (done) return;
        if (first) {
          first = false;
          clearTimeout(replyTimer);
          // The spec: a refused attach answers a text line starting with "e" (at v6, a JSON error).
          if (bytes[0] === 0x65 || bytes[0] === 0x7b) {
            refusal = new TextDecoder().decode(bytes.subarray(0, MAX_REFUSAL));
            return;
          }
          enterScreen();
        }
        if (refusal) {
          if (refusal.length < MAX_REFUSAL) refusal += new TextDecoder().decode(bytes.subarray(0, MAX_REFUSAL));
          return;
        }
        onFrames(bytes);
      },
      drain(s) {
        while (outQueue.length) {
          const head = outQueue[0]!;
          const n = s.write(head);
          if (n < head.length) {
            outQueue[0] = head.subarray(Math.max(0, n));
            return;
          }
          outQueue.shift();
        }
      },
      close() {
        if (refusal) return finish(1, refused());
        // No EXIT frame: the server went away, which counts as quit.
        finish(0, first ? "ws: the server closed the connection" : "[server exited]");
      },
      connectError(_s, err) {
        for (const sig of SIGNALS) process.off(sig, onSignal);
        process.off("uncaughtException", onCrash);
        reject(new AttachRefused(connectFailure(o.socketPath, err).message));
      },
      error(_s, err) {
        finish(1, refusal ? refused() : `ws: connection error: ${err.message}`);
      },
    }).catch((err) => {
      for (const sig of SIGNALS) process.off(sig, onSignal);
      process.off("uncaughtException", onCrash);
      reject(new AttachRefused(connectFailure(o.socketPath, err).message));
    });
  });
}
