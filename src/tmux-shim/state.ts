// What the shim keeps between calls, as tmux keeps it in its server: paste buffers and the options
// set with set-option. The ws daemon keeps them (features/shim-store.ts) and this is its client:
// every change is one message, so shim calls made at once lose nothing (each used to read, change
// and write a file of its own). The shim's private directory per ws socket (<socket>.tmux/, 0700)
// holds the `tmux` that PATH finds and wait-for's channels; the ws server removes it when it quits.
// Counts and sizes are bounded by the daemon (docs/tmux-shim.md#limits).
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { call } from "./world";
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

/** Remove the shim's directory for a ws socket (its `tmux`, wait-for's channels): the server
 * does when it quits. Only a directory marked as a shim's. */
export function removeShimDir(sock: string): void {
  const dir = shimDir(sock);
  if (existsSync(`${dir}/${MARKER}`)) rmSync(dir, { recursive: true, force: true });
}

/** The most text one message carries, as JSON (a line may be 1 MiB): a paste into a pane and a
 * buffer's text sent to the daemon go in pieces of this. */
const PIECE_JSON_BYTES = 512 * 1024;

export interface PasteBuffer {
  name: string;
  /** This version of the buffer: it changes with every change. */
  id: number;
  automatic: boolean;
  /** Its text's size in bytes (UTF-8). */
  bytes: number;
  /** The first characters of its text, for list-buffers. */
  sample: string;
}

/** One shim message; a refusal throws ShimError with the daemon's words (`no buffers`, `unknown buffer: x`, as tmux's). */
async function shim<T>(sock: string, type: string, fields: Record<string, unknown>): Promise<T> {
  return (await call(sock, type, fields)) as T;
}

/** `text` cut into pieces whose JSON encoding is at most `max` bytes, never inside a surrogate pair. */
export function pieces(text: string, max = PIECE_JSON_BYTES): string[] {
  const out: string[] = [];
  let start = 0;
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // JSON's worst case per UTF-16 unit: 6 for a control or a surrogate (\uXXXX), else its UTF-8.
    const cost = c < 0x20 || (c >= 0xd800 && c < 0xe000) ? 6 : c === 0x22 || c === 0x5c ? 2 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    const pairEnd = c >= 0xdc00 && c < 0xe000 && i > start && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) < 0xdc00;
    if (size + cost > max && i > start && !pairEnd) {
      out.push(text.slice(start, i));
      start = i;
      size = 0;
    }
    size += cost;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

export class ShimState {
  private optionCache: Record<string, string> | undefined;

  constructor(
    readonly dir: string,
    private readonly sock: string,
  ) {}

  /** Newest first. */
  async buffers(): Promise<PasteBuffer[]> {
    return (await shim<{ buffers: PasteBuffer[] }>(this.sock, "shim_buffer_list", {})).buffers;
  }

  /** A buffer's text (the named one, or the newest), read in pieces from one version of it. */
  async bufferText(name: string | undefined): Promise<{ buffer: PasteBuffer; text: string }> {
    let r = await shim<PasteBuffer & { text: string; next: number | null }>(this.sock, "shim_buffer_get", name === undefined ? {} : { name });
    const parts = [r.text];
    const first = r;
    while (r.next !== null) {
      r = await shim(this.sock, "shim_buffer_get", { name: first.name, id: first.id, offset: r.next });
      parts.push(r.text);
    }
    return { buffer: { name: first.name, id: first.id, automatic: first.automatic, bytes: first.bytes, sample: "" }, text: parts.join("") };
  }

  /** Set a buffer (no name: a new automatic bufferN), or add to it (`append`); it becomes the
   * newest. A text over a line's size goes in pieces, and the buffer changes once, at the last. */
  async putBuffer(name: string | undefined, text: string, append = false): Promise<void> {
    const parts = pieces(text);
    if (parts.length <= 1) {
      await shim(this.sock, "shim_buffer_set", { ...(name !== undefined ? { name } : {}), text, append });
      return;
    }
    let upload: string | undefined;
    for (const [i, part] of parts.entries()) {
      const more = i < parts.length - 1;
      const first = upload === undefined ? { ...(name !== undefined ? { name } : {}), append } : { upload };
      const r = await shim<{ upload?: string }>(this.sock, "shim_buffer_set", { ...first, text: part, more });
      upload ??= r.upload;
    }
  }

  /** set-buffer -n: the named buffer (or the newest) is called `to` now. */
  async renameBuffer(name: string | undefined, to: string): Promise<void> {
    await shim(this.sock, "shim_buffer_rename", { ...(name !== undefined ? { name } : {}), to });
  }

  /** Delete the named buffer (or the newest); with `id`, only that version of it. */
  async deleteBuffer(name: string | undefined, id?: number): Promise<void> {
    await shim(this.sock, "shim_buffer_delete", { ...(name !== undefined ? { name } : {}), ...(id !== undefined ? { id } : {}) });
  }

  /** The options set (read once per shim call; a change here reads them again). */
  async options(): Promise<Record<string, string>> {
    this.optionCache ??= (await shim<{ options: Record<string, string> }>(this.sock, "shim_option_list", {})).options;
    return this.optionCache;
  }

  /** set-option in one step on the daemon: `append` (-a), `if_unset` (-o), `toggle` (an on/off
   * option with no value; `value` its default), `unset` (-u). */
  async setOption(name: string, mode: "set" | "append" | "if_unset" | "toggle" | "unset", value = ""): Promise<void> {
    this.optionCache = undefined;
    await shim(this.sock, "shim_option_set", { name, mode, value });
  }
}
