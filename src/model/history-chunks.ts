// The history store's sealed lines, packed: a line kept as its own objects (a string, a layout
// string, a typed array of style runs) paid their headers on top of its text, more than the text
// of a 100-character line. So lines are kept CHUNK at a time: one string of their texts (one byte
// a character while they fit, another string for the lines that don't), one of their layouts, one
// array of their style runs, and one array of words saying where each line's part ends. A line
// read back is the same Stored it was packed from (its pieces sliced out when asked for).
import { RUN } from "./history-rows";

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
/** ...and in `Chunk.styled`: where its layout ends in `layout`, and its runs (counted in runs) in `runs`. */
const S = 2;
/** Words per run in a chunk none of whose runs has extended attributes or a link: first cell, fg, bg. */
const SHORT_RUN = 3;

export interface Chunk {
  count: number;
  /** The texts of its lines whose units all fit a byte, and of the others, each joined. */
  text8: string;
  text16: string;
  words: Uint32Array;
  /** Absent while no line in it has a layout or style runs. */
  layout: string;
  runs: Uint32Array | undefined;
  /** Words per run in `runs`: RUN, or SHORT_RUN while no run has extended attributes or a link. */
  runWords: number;
  styled: Uint32Array | undefined;
}

/** Whether `runs` (RUN words each) has a run with extended attributes or a link. */
function hasLongRun(runs: Uint32Array): boolean {
  for (let i = 0; i < runs.length; i += RUN) if (runs[i + 3] || runs[i + 4]) return true;
  return false;
}

/** `n` runs from `from` (`fromWords` each) into `to` (`toWords` each) from run `at`. */
function copyRuns(from: Uint32Array, fromWords: number, to: Uint32Array, toWords: number, at: number): void {
  if (fromWords === toWords) return to.set(from, at * toWords);
  const n = from.length / fromWords;
  for (let r = 0; r < n; r++) for (let k = 0; k < SHORT_RUN; k++) to[(at + r) * toWords + k] = from[r * fromWords + k]!;
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
  let runCount = prev?.runs ? prev.runs.length / prev.runWords : 0;
  let long = prev?.runWords === RUN;
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
    if (s.runs) {
      runCount += s.runs.length / RUN;
      long ||= hasLongRun(s.runs);
    }
  }
  const runWords = long ? RUN : SHORT_RUN;
  const chunk: Chunk = { count, text8: t8.join(""), text16: t16.join(""), words, layout: "", runs: undefined, runWords, styled: undefined };
  if (!anyStyle) return chunk;
  const styled = new Uint32Array(count * S);
  if (prev?.styled) styled.set(prev.styled.subarray(0, before * S));
  const runs = runCount ? new Uint32Array(runCount * runWords) : undefined;
  if (runs && prev?.runs) copyRuns(prev.runs, prev.runWords, runs, runWords, 0);
  const layouts: string[] = prev ? [prev.layout] : [];
  let layoutEnd = prev ? prev.layout.length : 0;
  let runEnd = prev?.runs ? prev.runs.length / prev.runWords : 0;
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i]!;
    if (s.layout) {
      layouts.push(s.layout);
      layoutEnd += s.layout.length;
    }
    if (s.runs) {
      copyRuns(s.runs, RUN, runs!, runWords, runEnd);
      runEnd += s.runs.length / RUN;
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
    const r1 = s[j * S + 1]!;
    if (r1 > r0 && c.runWords === RUN) runs = c.runs!.subarray(r0 * RUN, r1 * RUN);
    else if (r1 > r0) {
      runs = new Uint32Array((r1 - r0) * RUN);
      copyRuns(c.runs!.subarray(r0 * SHORT_RUN, r1 * SHORT_RUN), SHORT_RUN, runs, RUN, 0);
    }
  }
  return { text, layout, runs, cols: c.words[j * W + 3]! };
}
