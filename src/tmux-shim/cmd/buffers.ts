// The paste-buffer commands: set-buffer, load-buffer, show-buffer, delete-buffer, list-buffers,
// paste-buffer, over the buffers the daemon keeps (state.ts is its client; counts and sizes
// bounded there). A paste goes to the pane through pane_send, in pieces that fit the
// protocol's 1 MiB line, so a buffer of any accepted size can be pasted. Each command exports its
// entry (tmux's cmd-set-buffer.c, cmd-paste-buffer.c, …); cmd/index.ts puts them in tmux's table.
import { has, val } from "../getopt";
import { call, loadWorld, ShimError } from "../world";
import { resolvePane } from "../target";
import { pieces } from "../state";
import { BUFFER_MAX_BYTES } from "../../features/shim-store";
import { entry, type Run } from "./helpers";

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
  if (val(p, "n") !== undefined) return ctx.state.renameBuffer(name, val(p, "n")!);
  // -a adds to the buffer on the daemon, in the same step: a call at the same time loses nothing.
  await ctx.state.putBuffer(name, p.args[0] ?? "", has(p, "a") && name !== undefined);
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
  await ctx.state.putBuffer(val(p, "b"), data);
};

const showBuffer: Run = async (ctx, p) => {
  const { text } = await ctx.state.bufferText(val(p, "b"));
  ctx.out(text.endsWith("\n") ? text.slice(0, -1) : text);
};

const deleteBuffer: Run = async (ctx, p) => {
  await ctx.state.deleteBuffer(val(p, "b"));
};

const listBuffers: Run = async (ctx) => {
  for (const b of await ctx.state.buffers()) ctx.out(`${b.name}: ${b.bytes} bytes: "${b.sample.replace(/\n/g, "\\n")}"`);
};

const pasteBuffer: Run = async (ctx, p) => {
  const w = await loadWorld(ctx.sock);
  const pane = resolvePane(w, val(p, "t"), { pane: ctx.paneId !== undefined ? w.panes.get(ctx.paneId) : undefined });
  const { buffer, text } = await ctx.state.bufferText(val(p, "b"));
  const sep = val(p, "s") ?? (has(p, "r") ? "\n" : "\r");
  for (const piece of pieces(text.replace(/\n/g, sep))) await call(ctx.sock, "pane_send", { pane: pane.id, text: piece });
  // -d: the buffer pasted, not one set again by that name meanwhile.
  if (has(p, "d")) await ctx.state.deleteBuffer(buffer.name, buffer.id);
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
