// Attach-stream frame codec: [kind u8][len u32 BE][payload]. Shared by the
// attach client and the server's attach connection.

export const FRAME_OUTPUT = 0;
export const FRAME_EXIT = 1;
export const FRAME_EVENT = 2;
/** v6: the server drives the client's terminal itself (attach's `tty`). Sent before any OUTPUT
 * frame, and only to a client that asked. Payload empty, or `{"keys":"ask"}` when the server also
 * asks the terminal for its keyboard protocol (the client asked it to with attach's `keys`). */
export const FRAME_DIRECT = 3;
/** v6: the server turned this keyboard protocol on in the client's terminal (payload: its name,
 * key-protocol.ts), which the client undoes when it restores the terminal. */
export const FRAME_KEYS = 4;
/** v6, client → server: what the client's terminal said about itself when the client asked it
 * (it reads the terminal): JSON, terminal-report.ts's TerminalReport. Only the first counts; one
 * over MAX_TERMINAL_REPORT bytes or not well formed is ignored, as are the fields that are not. */
export const FRAME_TERMINAL = 5;
export const MAX_TERMINAL_REPORT = 16 * 1024;
export const FRAME_HEADER = 5;
export const MAX_FRAME_PAYLOAD = 64 * 1024 * 1024;

export type FrameKind = typeof FRAME_OUTPUT | typeof FRAME_EXIT | typeof FRAME_EVENT | typeof FRAME_DIRECT | typeof FRAME_KEYS | typeof FRAME_TERMINAL;

export interface Frame {
  kind: FrameKind;
  payload: Uint8Array;
}

export interface ExitNotice {
  reason: "detached" | "replaced" | "quit";
  message?: string;
  /** v6: the server quit for `ws restart`; a client may attach again once it is back. */
  restart?: boolean;
}

/** Buffer space kept between frames; more is let go once it is empty. */
const KEEP_BUFFER = 64 * 1024;
const KNOWN = new Set<number>([FRAME_OUTPUT, FRAME_EXIT, FRAME_EVENT, FRAME_DIRECT, FRAME_KEYS, FRAME_TERMINAL]);
const enc = new TextEncoder();
const dec = new TextDecoder();

export function encodeFrame(kind: number, payload: Uint8Array | string): Uint8Array {
  const body = typeof payload === "string" ? enc.encode(payload) : payload;
  if (body.length > MAX_FRAME_PAYLOAD) throw new Error(`frame payload too large (${body.length} bytes)`);
  const out = new Uint8Array(FRAME_HEADER + body.length);
  out[0] = kind;
  new DataView(out.buffer).setUint32(1, body.length, false);
  out.set(body, FRAME_HEADER);
  return out;
}

export const encodeOutput = (bytes: Uint8Array | string) => encodeFrame(FRAME_OUTPUT, bytes);
export const encodeExit = (n: ExitNotice) => encodeFrame(FRAME_EXIT, JSON.stringify(n));
export const encodeEvent = (ev: unknown) => encodeFrame(FRAME_EVENT, JSON.stringify(ev));

export function frameText(f: Frame): string {
  return dec.decode(f.payload);
}

/**
 * Streaming decoder: feed arbitrary chunks, get whole frames back. Frames of
 * unknown kinds are skipped (the spec says both sides ignore them); an
 * oversized length is a protocol error because we could never resync.
 */
export class FrameDecoder {
  private buf = new Uint8Array(0);
  private len = 0;

  push(chunk: Uint8Array): Frame[] {
    this.append(chunk);
    const frames: Frame[] = [];
    let off = 0;
    while (this.len - off >= FRAME_HEADER) {
      const kind = this.buf[off]!;
      const size = new DataView(this.buf.buffer, this.buf.byteOffset + off + 1, 4).getUint32(0, false);
      if (size > MAX_FRAME_PAYLOAD) throw new Error(`frame payload too large (${size} bytes)`);
      if (this.len - off - FRAME_HEADER < size) break;
      const start = off + FRAME_HEADER;
      if (KNOWN.has(kind)) frames.push({ kind: kind as FrameKind, payload: this.buf.slice(start, start + size) });
      off = start + size;
    }
    if (off > 0) {
      this.buf.copyWithin(0, off, this.len);
      this.len -= off;
    }
    // A big frame (a paste) grew the buffer: don't hold that memory for the rest of the session.
    if (this.len === 0 && this.buf.length > KEEP_BUFFER) this.buf = new Uint8Array(0);
    return frames;
  }

  /** Bytes held waiting for the rest of a frame. */
  get pending(): number {
    return this.len;
  }

  private append(chunk: Uint8Array) {
    if (this.len + chunk.length > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + chunk.length, 4096));
      next.set(this.buf.subarray(0, this.len));
      this.buf = next;
    }
    this.buf.set(chunk, this.len);
    this.len += chunk.length;
  }
}
