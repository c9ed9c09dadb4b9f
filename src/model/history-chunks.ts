// The history store's sealed lines, packed: a line kept as its own objects (a string, a layout
// string, a typed array of style runs) paid their headers on top of its text, more than the text
// of a 100-character line. So lines are kept CHUNK at a time: one string of their texts (one byte
// a character while they fit, another string for the lines that don't), one of their layouts, one
// array of their style runs, and one array of words saying where each line's part ends. A line
// read back is the same Stored it was packed from (its pieces sliced out when asked for).

/** One logical line: its cells' characters (one per cell, "\0" for an empty one), and where a
 * cell is not one code unit of width 1, each cell's units and width (`layout`: units << 2 | width);
 * `runs`: the style runs, absent when every cell has the default style. */
export interface Stored {
  text: string;
  layout: string | undefined;
  runs: Uint32Array | undefined;
  /** The width its rows had in xterm's buffer: at that width they come back as they were. */
  cols: number;
}

/** A sealed line waiting to be packed: its captured rows, and whether its text needs 16 bits. */
export interface Sealed extends Stored {
  rows: number;
  wide: boolean;
}

/** Lines per chunk: its few objects' headers shared by this many lines (~4 bytes a line), and
 * what a chunk holds past the store's limit until all its lines have gone. */
export const CHUNK = 128;

/** Words per line in `Chunk.words`: where its text ends in text8 and in text16, its captured rows
 * and its width. */
const W = 4;
/** ...and in `Chunk.styled`: where its layout ends in `layout` and its runs in `runs`. */
const S = 2;

export interface Chunk {
  count: number;
  /** The texts of its lines whose units all fit a byte, and of the others, each joined. */
  text8: string;
  text16: string;
  words: Uint32Array;
  /** Absent while no line in it has a layout or style runs. */
  layout: string;
  runs: Uint32Array | undefined;
  styled: Uint32Array | undefined;
}

/** `prev` (the last chunk, not full) with `lines` added to it, or a new chunk of them: the two
 * texts, the layout and the runs are each one flat piece. */
export function pack(prev: Chunk | undefined, lines: readonly Sealed[]): Chunk {
  const before = prev?.count ?? 0;
  const count = before + lines.length;
  const words = new Uint32Array(count * W);
  if (prev) words.set(prev.words.subarray(0, before * W));
  const t8: string[] = prev ? [prev.text8] : [];
  const t16: string[] = prev ? [prev.text16] : [];
  let end8 = prev ? prev.text8.length : 0;
  let end16 = prev ? prev.text16.length : 0;
  let anyStyle = !!prev?.styled;
  let runWords = prev?.runs?.length ?? 0;
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!;
    if (s.wide) {
      t16.push(s.text);
      end16 += s.text.length;
    } else {
      t8.push(s.text);
      end8 += s.text.length;
    }
    const at = (before + i) * W;
    words[at] = end8;
    words[at + 1] = end16;
    words[at + 2] = s.rows;
    words[at + 3] = s.cols;
    if (s.layout || s.runs) anyStyle = true;
    runWords += s.runs?.length ?? 0;
  }
  const chunk: Chunk = { count, text8: t8.join(""), text16: t16.join(""), words, layout: "", runs: undefined, styled: undefined };
  if (!anyStyle) return chunk;
  const styled = new Uint32Array(count * S);
  if (prev?.styled) styled.set(prev.styled.subarray(0, before * S));
  const runs = runWords ? new Uint32Array(runWords) : undefined;
  if (runs && prev?.runs) runs.set(prev.runs);
  const layouts: string[] = prev ? [prev.layout] : [];
  let layoutEnd = prev ? prev.layout.length : 0;
  let runEnd = prev?.runs?.length ?? 0;
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!;
    if (s.layout) {
      layouts.push(s.layout);
      layoutEnd += s.layout.length;
    }
    if (s.runs) {
      runs!.set(s.runs, runEnd);
      runEnd += s.runs.length;
    }
    styled[(before + i) * S] = layoutEnd;
    styled[(before + i) * S + 1] = runEnd;
  }
  chunk.layout = layouts.join("");
  chunk.runs = runs;
  chunk.styled = styled;
  return chunk;
}

/** Where line `j`'s text is: in text16 (`wide`) or text8, from `from` to `to`. */
function textSpan(c: Chunk, j: number): { wide: boolean; from: number; to: number } {
  const w = c.words;
  const at = j * W;
  const from8 = j ? w[at - W]! : 0;
  if (w[at]! > from8) return { wide: false, from: from8, to: w[at]! };
  return { wide: true, from: j ? w[at - W + 1]! : 0, to: w[at + 1]! };
}

/** Line `j`'s text length, in code units. */
export function textLength(c: Chunk, j: number): number {
  const w = c.words;
  const at = j * W;
  const n8 = w[at]! - (j ? w[at - W]! : 0);
  return n8 || w[at + 1]! - (j ? w[at - W + 1]! : 0);
}

/** Whether line `j` has a layout (a cell not one unit of width 1). */
export function hasLayout(c: Chunk, j: number): boolean {
  const s = c.styled;
  return !!s && s[j * S]! > (j ? s[(j - 1) * S]! : 0);
}

export function rowsOf(c: Chunk, j: number): number {
  return c.words[j * W + 2]!;
}

/** Line `j` as it was packed. */
export function lineOf(c: Chunk, j: number): Stored {
  const t = textSpan(c, j);
  const text = t.from === t.to ? "" : (t.wide ? c.text16 : c.text8).slice(t.from, t.to);
  let layout: string | undefined;
  let runs: Uint32Array | undefined;
  const s = c.styled;
  if (s) {
    const l0 = j ? s[(j - 1) * S]! : 0;
    if (s[j * S]! > l0) layout = c.layout.slice(l0, s[j * S]!);
    const r0 = j ? s[(j - 1) * S + 1]! : 0;
    if (s[j * S + 1]! > r0) runs = c.runs!.subarray(r0, s[j * S + 1]!);
  }
  return { text, layout, runs, cols: c.words[j * W + 3]! };
}
