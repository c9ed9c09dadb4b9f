// The paste-buffer commands: set-buffer, load-buffer, show-buffer, delete-buffer, list-buffers,
// paste-buffer, over the buffers ShimState keeps (state.ts: each buffer's text a file of its own,
// counts and sizes bounded). A paste goes to the pane through pane_send, in pieces that fit the
// protocol's 1 MiB line, so a buffer of any accepted size can be pasted. Each command exports its
// entry (tmux's cmd-set-buffer.c, cmd-paste-buffer.c, …); cmd/index.ts puts them in tmux's table.
import { has, val } from "../getopt";
import { call, loadWorld, ShimError } from "../world";
import { resolvePane } from "../target";
import { BUFFER_MAX_BYTES, type PasteBuffer } from "../state";
import { entry, type Ctx, type Run } from "./helpers";

/** The most of a pane_send line's `text` one piece holds, as JSON (the line may be 1 MiB). */
const PIECE_JSON_BYTES = 512 * 1024;

export function findBuffer(ctx: Ctx, name: string | undefined): PasteBuffer {
  const list = ctx.state.buffers();
  const b = name === undefined ? list[0] : list.find((x) => x.name === name);
  if (!b) throw new ShimError(name === undefined ? "no buffers" : `unknown buffer: ${name}`);
  return b;
}

function textOf(ctx: Ctx, b: PasteBuffer): string {
  const text = ctx.state.bufferText(b);
  if (text === undefined) throw new ShimError(`unknown buffer: ${b.name}`);
  return text;
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

/** A file's text (or stdin's, for `-`), read up to the buffer bound: a FIFO or `<(…)` is read as
 * tmux reads it, but never past BUFFER_MAX_BYTES. */
async function readBounded(path: string): Promise<string> {
  const stream = path === "-" ? Bun.stdin.stream() : Bun.file(path).stream();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > BUFFER_MAX_BYTES) throw new ShimError(`buffer too big (over ${BUFFER_MAX_BYTES} bytes)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const setBuffer: Run = async (ctx, p) => {
  const name = val(p, "b");
  if (val(p, "n") !== undefined) return ctx.state.renameBuffer(findBuffer(ctx, name), val(p, "n")!);
  let data = p.args[0] ?? "";
  if (has(p, "a") && name !== undefined) {
    const old = ctx.state.buffers().find((x) => x.name === name);
    if (old) data = textOf(ctx, old) + data;
  }
  ctx.state.putBuffer(name, data);
};

const loadBuffer: Run = async (ctx, p) => {
  const path = p.args[0];
  if (path === undefined) throw new ShimError("load-buffer: no file");
  let data: string;
  try {
    data = await readBounded(path);
  } catch (e) {
    if (e instanceof ShimError) throw e;
    throw new ShimError(`${path}: ${(e as Error).message}`);
  }
  ctx.state.putBuffer(val(p, "b"), data);
};

const showBuffer: Run = async (ctx, p) => {
  const text = textOf(ctx, findBuffer(ctx, val(p, "b")));
  ctx.out(text.endsWith("\n") ? text.slice(0, -1) : text);
};

const deleteBuffer: Run = async (ctx, p) => {
  ctx.state.deleteBuffer(findBuffer(ctx, val(p, "b")));
};

const listBuffers: Run = async (ctx) => {
  for (const b of ctx.state.buffers()) ctx.out(`${b.name}: ${b.bytes} bytes: "${b.sample.replace(/\n/g, "\\n")}"`);
};

const pasteBuffer: Run = async (ctx, p) => {
  const w = await loadWorld(ctx.sock);
  const pane = resolvePane(w, val(p, "t"), { pane: ctx.paneId !== undefined ? w.panes.get(ctx.paneId) : undefined });
  const b = findBuffer(ctx, val(p, "b"));
  const sep = val(p, "s") ?? (has(p, "r") ? "\n" : "\r");
  for (const text of pieces(textOf(ctx, b).replace(/\n/g, sep))) await call(ctx.sock, "pane_send", { pane: pane.id, text });
  if (has(p, "d")) ctx.state.deleteBuffer(b);
};

// ---- the entries ---------------------------------------------------------------------------

export const chooseBufferEntry = entry("choose-buffer", undefined);
export const deleteBufferEntry = entry("delete-buffer", "deleteb", "b:", deleteBuffer);
export const listBuffersEntry = entry("list-buffers", "lsb", "F:f:", listBuffers);
export const loadBufferEntry = entry("load-buffer", "loadb", "b:t:w", loadBuffer);
export const pasteBufferEntry = entry("paste-buffer", "pasteb", "db:prs:t:", pasteBuffer);
export const saveBufferEntry = entry("save-buffer", "saveb");
export const setBufferEntry = entry("set-buffer", "setb", "ab:t:n:w", setBuffer);
export const showBufferEntry = entry("show-buffer", "showb", "b:", showBuffer);
