// Writing a save without holding every pane's text in memory. The body is streamed to the file:
// its structure, and each pane's scrollback either as just encoded (a pane that printed since the
// last save) or copied from where it lies in the file written last, checked against the hash
// taken when it was written. Between saves the server keeps only that: where each pane's
// scrollback lies and its hash. The header comes first and holds the body's SHA-256, known only
// at the end: it is written with a placeholder of the same length, filled in last.
import { open, type FileHandle } from "node:fs/promises";
import { bodyPieces, headerLine, type SaveBody, type SavedPane } from "./format";
import { writeSave } from "./store";

/** Where a pane's encoded scrollback lies in the save file written last, and its hash. */
export interface PaneBytes {
  at: number;
  length: number;
  hash: bigint;
}

/** A pane's scrollback for the file: its encoded bytes, or where they lie in the last file. */
export type PaneText = Uint8Array | PaneBytes;

/** The last file did not hold what was expected of it (removed, replaced, changed): the panes'
 * text must be taken again. */
export class StaleSave extends Error {}

const hashOf = (bytes: Uint8Array): bigint => BigInt(Bun.hash.wyhash(bytes));
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
      for (let i = 0; i < pieces.length; i++) {
        await put(pieces[i]!);
        if (i >= texts.length) break;
        const t = texts[i]!;
        const text = t instanceof Uint8Array ? t : await copied(last!, t);
        where.set(panes[i]!.id, { at, length: text.length, hash: t instanceof Uint8Array ? hashOf(t) : t.hash });
        await put(text);
      }
      await put(Buffer.from("\n"), false);
      await write(Buffer.from(hasher.digest("hex")), shaAt);
    });
    return { size: header.length + bytes + 1, panes: where };
  } finally {
    await last?.close();
  }
}

/** A pane's bytes from the last file, as they were written. */
async function copied(file: FileHandle, from: PaneBytes): Promise<Uint8Array> {
  const b = Buffer.allocUnsafe(from.length);
  let got = 0;
  while (got < from.length) {
    const { bytesRead } = await file.read(b, got, from.length - got, from.at + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  if (got !== from.length || hashOf(b) !== from.hash) throw new StaleSave("the last save changed under this server");
  return b;
}
