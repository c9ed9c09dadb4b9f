// The tmux shim's paste buffers and options, kept by the daemon as tmux's server keeps its own.
// Each shim call is a separate process; when each read, changed and wrote a file, calls made at
// once lost each other's changes. Here every change is one message (messages/shim_*.ts) applied
// on the daemon's one thread, so none is lost. In memory, gone with the server as tmux's are.
// Counts and sizes are bounded (docs/tmux-shim.md#limits); a buffer's text is kept as UTF-8 bytes,
// so the bounds are the memory it takes.
import { WsError } from "../protocol/errors";
import type { Feature } from "./feature";

/** tmux's buffer-limit: automatic buffers beyond it are dropped, oldest first. */
export const BUFFER_LIMIT = 50;
/** Named buffers (set-buffer -b, load-buffer -b): tmux keeps any number; the shim keeps this many. */
export const NAMED_BUFFER_LIMIT = 50;
/** A bound on one buffer's text. */
export const BUFFER_MAX_BYTES = 16 * 1024 * 1024;
/** A bound on all buffers together: past it the oldest automatic buffers go, then a new one is refused. */
export const BUFFERS_TOTAL_BYTES = 64 * 1024 * 1024;
/** A buffer's or option's name. */
export const SHIM_NAME_MAX = 256;
/** Options kept (tmux's own and user @options), and the longest value. */
export const SHIM_OPTIONS_MAX = 512;
export const SHIM_OPTION_VALUE_MAX = 64 * 1024;
/** A text sent in pieces (over a line's size) is held until its last piece: this many at once, each
 * forgotten when its next piece is this late. */
export const UPLOADS_MAX = 8;
export const UPLOAD_IDLE_MS = 10_000;
const SAMPLE_CHARS = 50;

export interface ShimBuffer {
  /** Changes with every change of the buffer: a text read in pieces is read from one version. */
  id: number;
  name: string;
  automatic: boolean;
  data: Uint8Array;
}

interface Upload {
  name: string | undefined;
  append: boolean;
  chunks: Uint8Array[];
  bytes: number;
  timer: ReturnType<typeof setTimeout>;
}

export type OptionMode = "set" | "append" | "if_unset" | "toggle" | "unset";

const limit = (message: string, n: number) => new WsError(message, "limit_exceeded", { limit: n });

function checkName(field: string, name: string): void {
  if (!name.length || name.length > SHIM_NAME_MAX) throw new WsError(`${field} must be 1 to ${SHIM_NAME_MAX} characters`, "invalid_params", { param: field });
}

export class ShimStore {
  /** Newest first. */
  private list: ShimBuffer[] = [];
  private nextId = 1;
  private uploads = new Map<string, Upload>();
  private readonly opts = new Map<string, string>();

  buffers(): readonly ShimBuffer[] {
    return this.list;
  }

  /** The buffer by name, or the newest; `id`: only that version of it. Throws buffer_not_found. */
  find(name: string | undefined, id?: number): ShimBuffer {
    const b = id !== undefined ? this.list.find((x) => x.id === id && (name === undefined || x.name === name)) : name === undefined ? this.list[0] : this.list.find((x) => x.name === name);
    if (!b) {
      const what = id !== undefined ? `buffer ${name ?? ""} changed or was deleted while it was read` : name === undefined ? "no buffers" : `unknown buffer: ${name}`;
      throw new WsError(what, "buffer_not_found", { available: this.list.map((x) => x.name) });
    }
    return b;
  }

  /** Set (or, `append`, add to) a buffer; no name: a new automatic bufferN. It becomes the newest. */
  set(name: string | undefined, data: Uint8Array, append = false): ShimBuffer {
    if (name !== undefined) checkName("name", name);
    const old = name === undefined ? undefined : this.list.find((b) => b.name === name);
    if (append && old) data = Buffer.concat([old.data, data]);
    if (data.length > BUFFER_MAX_BYTES) throw limit(`buffer too big (over ${BUFFER_MAX_BYTES} bytes)`, BUFFER_MAX_BYTES);
    let automatic = false;
    if (name === undefined) {
      const n = Math.max(-1, ...this.list.filter((b) => b.automatic).map((b) => Number(b.name.slice(6)) || 0)) + 1;
      name = `buffer${n}`;
      automatic = true;
    }
    const others = this.list.filter((b) => b !== old);
    this.checkRoom(others, automatic || old !== undefined, data.length);
    const b: ShimBuffer = { id: this.nextId++, name, automatic, data };
    this.keep([b, ...others]);
    return b;
  }

  /** set-buffer -n: the buffer takes the name `to` (replacing a buffer of that name), named now. */
  rename(from: ShimBuffer, to: string): ShimBuffer {
    checkName("to", to);
    const others = this.list.filter((b) => b !== from && b.name !== to);
    if (from.automatic) this.checkRoom(others, false, 0);
    const b: ShimBuffer = { ...from, id: this.nextId++, name: to, automatic: false };
    this.keep([b, ...others]);
    return b;
  }

  delete(b: ShimBuffer): void {
    this.list = this.list.filter((x) => x !== b);
  }

  /** A new named buffer needs a free name slot; named buffers together stay within the total. */
  private checkRoom(others: ShimBuffer[], namedSlotHeld: boolean, bytes: number): void {
    const named = others.filter((b) => !b.automatic);
    if (!namedSlotHeld && named.length >= NAMED_BUFFER_LIMIT) throw limit(`too many named buffers (at most ${NAMED_BUFFER_LIMIT}); delete-buffer one first`, NAMED_BUFFER_LIMIT);
    if (named.reduce((n, b) => n + b.data.length, 0) + bytes > BUFFERS_TOTAL_BYTES) throw limit(`buffers would hold over ${BUFFERS_TOTAL_BYTES} bytes; delete-buffer some first`, BUFFERS_TOTAL_BYTES);
  }

  /** Keep `list` (newest first), dropping automatic buffers past BUFFER_LIMIT and the oldest
   * automatic ones while all of them hold over BUFFERS_TOTAL_BYTES. */
  private keep(list: ShimBuffer[]): void {
    let automatic = 0;
    let kept = list.filter((b) => !b.automatic || ++automatic <= BUFFER_LIMIT);
    let total = kept.reduce((n, b) => n + b.data.length, 0);
    for (let i = kept.length - 1; i > 0 && total > BUFFERS_TOTAL_BYTES; i--) {
      if (!kept[i]!.automatic) continue;
      total -= kept[i]!.data.length;
      kept = kept.filter((_, j) => j !== i);
    }
    this.list = kept;
  }

  /** A piece of a text too big for one line: held under the returned upload id until the piece
   * without `more`, then set as one buffer (as `set` would, `name` and `append` from the first). */
  piece(o: { upload?: string; name?: string; append?: boolean; data: Uint8Array; more: boolean }): { buffer?: ShimBuffer; upload?: string } {
    let id = o.upload;
    let up: Upload | undefined;
    if (id !== undefined) {
      up = this.uploads.get(id);
      if (!up) throw new WsError(`upload ${id} is not going on (finished, or its next piece came over ${UPLOAD_IDLE_MS / 1000} s late)`, "invalid_params", { param: "upload" });
      clearTimeout(up.timer);
    } else {
      if (o.name !== undefined) checkName("name", o.name);
      if (this.uploads.size >= UPLOADS_MAX) throw limit(`too many buffers being loaded at once (at most ${UPLOADS_MAX})`, UPLOADS_MAX);
      id = crypto.randomUUID();
      up = { name: o.name, append: o.append ?? false, chunks: [], bytes: 0, timer: undefined as unknown as ReturnType<typeof setTimeout> };
      this.uploads.set(id, up);
    }
    const drop = () => {
      clearTimeout(up.timer);
      this.uploads.delete(id);
    };
    up.chunks.push(o.data);
    up.bytes += o.data.length;
    const held = [...this.uploads.values()].reduce((n, u) => n + u.bytes, 0);
    // Refused as soon as it can't fit, not after all of it has come.
    const named = this.list.filter((b) => !b.automatic && (b.name !== up.name || up.append)).reduce((n, b) => n + b.data.length, 0);
    const problem =
      up.bytes > BUFFER_MAX_BYTES
        ? limit(`buffer too big (over ${BUFFER_MAX_BYTES} bytes)`, BUFFER_MAX_BYTES)
        : named + up.bytes > BUFFERS_TOTAL_BYTES
          ? limit(`buffers would hold over ${BUFFERS_TOTAL_BYTES} bytes; delete-buffer some first`, BUFFERS_TOTAL_BYTES)
          : held > BUFFERS_TOTAL_BYTES
            ? limit(`buffers being loaded would hold over ${BUFFERS_TOTAL_BYTES} bytes`, BUFFERS_TOTAL_BYTES)
            : undefined;
    if (problem) {
      drop();
      throw problem;
    }
    if (o.more) {
      up.timer = setTimeout(drop, UPLOAD_IDLE_MS);
      up.timer.unref?.();
      return { upload: id };
    }
    drop();
    return { buffer: this.set(up.name, Buffer.concat(up.chunks), up.append) };
  }

  /** One line of list-buffers: the start of the text. */
  sample(b: ShimBuffer): string {
    return Buffer.from(b.data.subarray(0, SAMPLE_CHARS * 4)).toString("utf8").slice(0, SAMPLE_CHARS);
  }

  options(): Record<string, string> {
    return Object.fromEntries(this.opts);
  }

  /** set-option in one step (so `-a`, `-o` and a flip of on/off see no other call's half-done
   * change): `toggle` flips on/off, `value` being the option's default while it is unset. */
  setOption(name: string, mode: OptionMode, value = ""): { value: string | undefined; changed: boolean } {
    checkName("name", name);
    const old = this.opts.get(name);
    let next: string | undefined;
    switch (mode) {
      case "unset":
        next = undefined;
        break;
      case "if_unset":
        if (old !== undefined) return { value: old, changed: false };
        next = value;
        break;
      case "append":
        next = (old ?? "") + value;
        break;
      case "toggle":
        next = (old ?? value) === "on" ? "off" : "on";
        break;
      default:
        next = value;
    }
    if (next === undefined) {
      this.opts.delete(name);
      return { value: undefined, changed: old !== undefined };
    }
    if (next.length > SHIM_OPTION_VALUE_MAX) throw limit(`option value too long (over ${SHIM_OPTION_VALUE_MAX} characters)`, SHIM_OPTION_VALUE_MAX);
    if (old === undefined && this.opts.size >= SHIM_OPTIONS_MAX) throw limit(`too many options set (at most ${SHIM_OPTIONS_MAX}); unset one first`, SHIM_OPTIONS_MAX);
    this.opts.set(name, next);
    return { value: next, changed: next !== old };
  }

  stop(): void {
    for (const u of this.uploads.values()) clearTimeout(u.timer);
    this.uploads.clear();
  }
}

export default function shimStoreFeature(): Feature {
  const store = new ShimStore();
  return {
    name: "shim-store",
    provide(d) {
      d.services.provide("shim", store);
    },
    stop() {
      store.stop();
    },
  };
}
