// What the shim keeps between calls, as tmux keeps it in its server: paste buffers and the options
// set with set-option. One private directory per ws socket (<socket>.tmux/, 0700), beside it,
// which also holds the `tmux` that PATH finds. Files are written whole (a temporary file renamed).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";

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

function readJson<T>(path: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return fallback;
  }
}

function writeJson(path: string, value: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
  renameSync(tmp, path);
}

export interface PasteBuffer {
  name: string;
  data: string;
  automatic: boolean;
}

/** tmux's buffer-limit: automatic buffers beyond it are dropped, oldest first. */
const BUFFER_LIMIT = 50;
/** A bound on what the shim keeps in one buffer. */
export const BUFFER_MAX_BYTES = 16 * 1024 * 1024;

export class ShimState {
  constructor(readonly dir: string) {}

  /** Newest first. */
  buffers(): PasteBuffer[] {
    return readJson<PasteBuffer[]>(`${this.dir}/buffers.json`, []);
  }

  saveBuffers(list: PasteBuffer[]): void {
    let automatic = 0;
    const kept = list.filter((b) => !b.automatic || ++automatic <= BUFFER_LIMIT);
    writeJson(`${this.dir}/buffers.json`, kept);
  }

  /** Add or replace a buffer; with no name, a new automatic bufferN. It becomes the newest. */
  putBuffer(name: string | undefined, data: string): void {
    const list = this.buffers();
    let automatic = false;
    if (name === undefined) {
      const n = Math.max(-1, ...list.filter((b) => b.automatic).map((b) => Number(b.name.slice(6)) || 0)) + 1;
      name = `buffer${n}`;
      automatic = true;
    }
    this.saveBuffers([{ name, data, automatic }, ...list.filter((b) => b.name !== name)]);
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
