// Writing a save without holding every pane's text in memory. The body is streamed to the file:
// its structure, and each pane's scrollback either as just encoded (a pane that printed since the
// last save) or copied from where it lies in the file written last, checked against the hash
// taken when it was written. Between saves the server keeps only that: where each pane's
// scrollback lies and its hash. The header comes first and holds the body's SHA-256, known only
// at the end: it is written with a placeholder of the same length, filled in last.
import { open, type FileHandle } from "node:fs/promises";
import { bodyPieces, headerLine, type SaveBody, type SavedPane } from "./format";
import { writeSave } from "./store";

/** Where a pane's encoded scrollback lies in the save file written last, and its CRC-32 (what
 * tells bytes changed under us, by accident or by another writer, from those written). */
export interface PaneBytes {
  at: number;
  length: number;
  crc: number;
}

/** A pane's scrollback for the file: its encoded bytes, or where they lie in the last file. */
export type PaneText = Uint8Array | PaneBytes;

/** The last file did not hold what was expected of it (removed, replaced, changed): the panes'
 * text must be taken again. */
export class StaleSave extends Error {}

/** Bytes copied from the last file at a time (one buffer, reused). */
const COPY_BYTES = 256 * 1024;
const PLACEHOLDER = "0".repeat(64);

export interface Written {
  /** The file's size. */
  size: number;
  /** Where each pane's scrollback lies in the new file, by pane id. */
  panes: Map<number, PaneBytes>;
}

/** Write `body` to `path` (atomically, store.ts), each pane's scrollback from `textOf`. */
export async function writeStreamed(path: string, body: SaveBody, meta: { ws: string; server: string; savedAt?: Date }, textOf: (pane: SavedPane) => PaneText): Promise<Written> {
  const { pieces, panes } = bodyPieces(body);
  const texts = panes.map(textOf);
  let bytes = 0;
  for (const p of pieces) bytes += p.length;
  for (const t of texts) bytes += t.length;
  const header = headerLine(body, meta, bytes, PLACEHOLDER);
  // (The checksum is the header's last field: a server name cannot hold the placeholder after it.)
  const shaAt = Buffer.from(header).lastIndexOf(PLACEHOLDER);
  const where = new Map<number, PaneBytes>();
  let last: FileHandle | undefined;
  try {
    if (texts.some((t) => !(t instanceof Uint8Array))) last = await open(path, "r").catch(() => Promise.reject(new StaleSave(`${path} is gone`)));
    await writeSave(path, async (write) => {
      const hasher = new Bun.CryptoHasher("sha256");
      let at = 0;
      const put = async (b: Uint8Array, inBody = true) => {
        await write(b);
        if (inBody) hasher.update(b);
        at += b.length;
      };
      await put(header, false);
      let buffer: Buffer | undefined;
      for (let i = 0; i < pieces.length; i++) {
        await put(pieces[i]!);
        if (i >= texts.length) break;
        const t = texts[i]!;
        if (t instanceof Uint8Array) {
          where.set(panes[i]!.id, { at, length: t.length, crc: Bun.hash.crc32(t) });
          await put(t);
          continue;
        }
        // Copied a buffer at a time, checked once whole (a mismatch throws, and the file written
        // so far is removed: writeAtomic).
        where.set(panes[i]!.id, { at, length: t.length, crc: t.crc });
        buffer ??= Buffer.allocUnsafe(COPY_BYTES);
        let crc = 0;
        for (let done = 0; done < t.length; ) {
          const want = Math.min(COPY_BYTES, t.length - done);
          const { bytesRead } = await last!.read(buffer, 0, want, t.at + done);
          if (bytesRead === 0) throw new StaleSave("the last save is shorter than it was");
          const chunk = buffer.subarray(0, bytesRead);
          crc = Bun.hash.crc32(chunk, crc);
          await put(chunk);
          done += bytesRead;
        }
        if (crc !== t.crc) throw new StaleSave("the last save changed under this server");
      }
      await put(Buffer.from("\n"), false);
      await write(Buffer.from(hasher.digest("hex")), shaAt);
    });
    return { size: header.length + bytes + 1, panes: where };
  } finally {
    await last?.close();
  }
}
