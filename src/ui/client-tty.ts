// The attached client's own terminal, opened by the server (attach's v6 `tty`). Keys are read
// from it and frames written to it here, so a key and its echo pass through no client process:
// on these VMs each wake-up of a Bun process costs ~0.1–0.3 ms, and the client added two to every
// key. tmux's server drives the client's terminal the same way. The client keeps the terminal in
// raw mode, forwards resizes and waits for EXIT. docs/attach.md has the protocol side.
import { constants, fstatSync, openSync } from "node:fs";
import { isatty } from "node:tty";
import { libc } from "../platform/pty-libc";
import { FdWriteQueue } from "../model/fd-write-queue";
import { isTerminalPath, ttyId } from "../protocol/tty-id";

/** A retry while the terminal takes no more (it is slow, or scrolled back and paused). */
const WRITE_RETRY_MS = 2;

export interface ClientTty {
  /** Frames go here: what the terminal does not take now waits, and is written as it drains. */
  readonly out: FdWriteQueue;
  /** Stop reading and writing (pending output is dropped) and close the device. Idempotent. */
  close(): void;
}

/**
 * Open `path` as the client's terminal: a character device, a tty, owned by this server's user,
 * and the very one the client has when it says which (`id`, ttyId of its stdin).
 * `onInput` gets what is typed; `onGone` is called once if the terminal goes away. Undefined when
 * it cannot be driven from here (the client then pumps its terminal itself, as before v6).
 */
export function openClientTty(path: string, id: string | undefined, onInput: (bytes: Uint8Array) => void, onGone: () => void): ClientTty | undefined {
  const c = libc();
  if (!c || !isTerminalPath(path)) return undefined;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || st.uid !== process.getuid?.() || !isatty(fd)) throw new Error("not ours");
    if (id !== undefined && id !== ttyId(st)) throw new Error("another terminal of the same name");
  } catch {
    c.close(fd);
    return undefined;
  }

  let closed = false;
  const reader = Bun.file(fd).stream().getReader();
  const gone = () => {
    if (closed) return;
    close();
    onGone();
  };
  const out = new FdWriteQueue(c, fd, { retryMs: WRITE_RETRY_MS, onError: gone });

  const close = () => {
    if (closed) return;
    closed = true;
    out.stop();
    // Bun stops watching the fd when the stream is cancelled; only then is the number ours to close.
    reader
      .cancel()
      .catch(() => {})
      .finally(() => c.close(fd));
  };

  void (async () => {
    while (!closed) {
      const chunk = await reader.read().then((r) => r.value, () => undefined);
      if (closed) return;
      if (!chunk) return gone(); // EOF or EIO: the terminal hung up
      onInput(chunk);
    }
  })();

  return { out, close };
}
