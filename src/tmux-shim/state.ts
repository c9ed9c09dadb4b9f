// What the shim keeps between calls, as tmux keeps it in its server: paste buffers and the options
// set with set-option. One private directory per ws socket (<socket>.tmux/, 0700), beside it,
// which also holds the `tmux` that PATH finds; the ws server removes it when it quits. Files are
// written whole (a temporary file renamed). A buffer's text is a file of its own (buffers/<id>),
// and buffers.json is only their index (name, size, the start of the text), so listing buffers
// never reads their contents. Counts and sizes are bounded (docs/tmux-shim.md#limits).
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { readTextFile } from "../safe-file";
import { ShimError } from "./world";

/** The shim's directory for a ws socket: `…/default.sock` → `…/default.tmux`. */
export const shimDir = (sock: string) => sock.replace(/\.sock$/, "") + ".tmux";

/** Marks a directory as a shim's, so the search for the real tmux skips its `tmux`. */
export const MARKER = ".ws-tmux-shim";

export function ensureShimDir(sock: string): string {
  const dir = shimDir(sock);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (!existsSync(`${dir}/${MARKER}`)) writeFileSync(`${dir}/${MARKER}`, "", { mode: 0o600 });
  return dir;
}

/** Remove the shim's directory for a ws socket (its `tmux`, buffers and options): the server
 * does when it quits, as tmux's buffers go with its server. Only a directory marked as a shim's. */
export function removeShimDir(sock: string): void {
  const dir = shimDir(sock);
  if (existsSync(`${dir}/${MARKER}`)) rmSync(dir, { recursive: true, force: true });
}

/** The index is small (at most BUFFER_LIMIT + NAMED_BUFFER_LIMIT entries); a bigger file is not ours. */
const STATE_FILE_MAX = 4 * 1024 * 1024;

function readJson<T>(path: string, fallback: T): T {
  try {
    return JSON.parse(readTextFile(path, STATE_FILE_MAX, true)) as T;
  } catch {
    return fallback;
  }
}

function writeFileWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}

const writeJson = (path: string, value: unknown) => writeFileWhole(path, JSON.stringify(value));

export interface PasteBuffer {
  name: string;
  automatic: boolean;
  /** Its text's size in bytes (UTF-8). */
  bytes: number;
  /** The first characters of its text, for list-buffers. */
  sample: string;
  /** Its text's file in buffers/. */
  id: string;
}

/** tmux's buffer-limit: automatic buffers beyond it are dropped, oldest first. */
export const BUFFER_LIMIT = 50;
/** Named buffers (set-buffer -b, load-buffer -b): tmux keeps any number; the shim keeps this many. */
export const NAMED_BUFFER_LIMIT = 50;
/** A bound on what the shim keeps in one buffer. */
export const BUFFER_MAX_BYTES = 16 * 1024 * 1024;
/** A bound on all buffers together: past it the oldest automatic buffers go, then a new one is refused. */
export const BUFFERS_TOTAL_BYTES = 64 * 1024 * 1024;
const SAMPLE_CHARS = 50;


export class ShimState {
  constructor(readonly dir: string) {}

  /** Newest first; only entries whose text is still there. */
  buffers(): PasteBuffer[] {
    const list = readJson<unknown>(`${this.dir}/buffers.json`, []);
    if (!Array.isArray(list)) return [];
    return list.filter(
      (b): b is PasteBuffer => !!b && typeof b.name === "string" && typeof b.id === "string" && /^[0-9a-f]{16}$/.test(b.id) && typeof b.bytes === "number" && typeof b.automatic === "boolean",
    );
  }

  /** A buffer's text; undefined when its file has gone (a call racing with delete-buffer). */
  bufferText(b: PasteBuffer): string | undefined {
    try {
      return readTextFile(this.textPath(b.id), BUFFER_MAX_BYTES, true);
    } catch {
      return undefined;
    }
  }

  private textPath(id: string): string {
    return `${this.dir}/buffers/${id}`;
  }

  /** Keep `list` (newest first) as the buffers: the automatic ones past BUFFER_LIMIT and the
   * oldest automatic ones past BUFFERS_TOTAL_BYTES are dropped, and the texts of every buffer
   * no longer listed are removed. */
  saveBuffers(list: PasteBuffer[]): void {
    let automatic = 0;
    let kept = list.filter((b) => !b.automatic || ++automatic <= BUFFER_LIMIT);
    let total = kept.reduce((n, b) => n + b.bytes, 0);
    for (let i = kept.length - 1; i > 0 && total > BUFFERS_TOTAL_BYTES; i--) {
      if (!kept[i]!.automatic) continue;
      total -= kept[i]!.bytes;
      kept = kept.filter((_, j) => j !== i);
    }
    const before = this.buffers();
    writeJson(`${this.dir}/buffers.json`, kept);
    const still = new Set(kept.map((b) => b.id));
    for (const b of [...before, ...list]) if (!still.has(b.id)) this.removeText(b.id);
  }

  private removeText(id: string): void {
    try {
      unlinkSync(this.textPath(id));
    } catch {}
  }

  /** Add or replace a buffer; with no name, a new automatic bufferN. It becomes the newest.
   * Throws ShimError past NAMED_BUFFER_LIMIT or BUFFERS_TOTAL_BYTES. */
  putBuffer(name: string | undefined, data: string): void {
    const bytes = Buffer.byteLength(data);
    if (bytes > BUFFER_MAX_BYTES) throw new ShimError(`buffer too big (over ${BUFFER_MAX_BYTES} bytes)`);
    const list = this.buffers();
    let automatic = false;
    if (name === undefined) {
      const n = Math.max(-1, ...list.filter((b) => b.automatic).map((b) => Number(b.name.slice(6)) || 0)) + 1;
      name = `buffer${n}`;
      automatic = true;
    }
    const others = list.filter((b) => b.name !== name);
    if (!automatic && !list.some((b) => b.name === name) && others.filter((b) => !b.automatic).length >= NAMED_BUFFER_LIMIT)
      throw new ShimError(`too many named buffers (at most ${NAMED_BUFFER_LIMIT}); delete-buffer one first`);
    const named = others.filter((b) => !b.automatic).reduce((n, b) => n + b.bytes, 0);
    if (named + bytes > BUFFERS_TOTAL_BYTES) throw new ShimError(`buffers would hold over ${BUFFERS_TOTAL_BYTES} bytes; delete-buffer some first`);
    const id = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
    mkdirSync(`${this.dir}/buffers`, { recursive: true, mode: 0o700 });
    writeFileWhole(this.textPath(id), data);
    this.saveBuffers([{ name, automatic, bytes, sample: data.slice(0, SAMPLE_CHARS), id }, ...others]);
  }

  /** Give buffer `from` the name `to` (replacing a buffer of that name); it becomes the newest. */
  renameBuffer(from: PasteBuffer, to: string): void {
    const others = this.buffers().filter((b) => b.name !== from.name && b.name !== to);
    if (from.automatic && others.filter((b) => !b.automatic).length >= NAMED_BUFFER_LIMIT)
      throw new ShimError(`too many named buffers (at most ${NAMED_BUFFER_LIMIT}); delete-buffer one first`);
    this.saveBuffers([{ ...from, name: to, automatic: false }, ...others]);
  }

  deleteBuffer(b: PasteBuffer): void {
    this.saveBuffers(this.buffers().filter((x) => x.name !== b.name));
  }

  options(): Record<string, string> {
    return readJson<Record<string, string>>(`${this.dir}/options.json`, {});
  }

  setOption(name: string, value: string | undefined): void {
    const o = this.options();
    if (value === undefined) delete o[name];
    else o[name] = value;
    writeJson(`${this.dir}/options.json`, o);
  }
}
