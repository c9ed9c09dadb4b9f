// Taking a save of the live model. The structure (workspaces, tabs, layouts, focus) is copied in
// one synchronous step, so it is consistent; scrollback text and working directories are filled in
// afterwards, yielding between panes so a big save never stalls the daemon for long. Scrollback is
// captured again only for panes that printed something since their last capture.
import { readlink } from "node:fs/promises";
import type { Terminal } from "@xterm/headless";
import { paneRects, panesOf } from "../../model/layout";
import type { Pane } from "../../model/pane";
import type { Session } from "../../server/session";
import { quoteText, type SaveBody, type SavedPane, type SavedRect, type SavedTab } from "./format";

/** Variables every pane gets afresh from the server that starts it; never carried over. */
const PER_PANE = new Set(["WS_SOCKET", "WS_PANE_ID", "WS_WORKSPACE", "PWD"]);

/** xterm's own line storage: 3 uint32 per cell, the first holding the code point (bits 0-20), a
 * "combined" flag (bit 21, text in `_combined`) and the cell's width (bits 22-23). Reading it
 * directly is ~10× faster than the public `translateToString`, which matters at 100 panes × 10,000
 * lines. The public API is the fallback should the internals ever change. */
interface RawLine {
  isWrapped: boolean;
  _data: Uint32Array;
  _combined: Record<number, string>;
  getTrimmedLength(): number;
}

function rawLines(term: Terminal): { length: number; get(i: number): RawLine | undefined } | undefined {
  const lines = (term as any)._core?.buffers?.normal?.lines;
  const probe = lines?.length ? lines.get(0) : undefined;
  if (!probe || !(probe._data instanceof Uint32Array) || typeof probe.getTrimmedLength !== "function" || typeof probe._combined !== "object") return undefined;
  return lines;
}

const codes: number[] = [];

function rawText(l: RawLine, trim: boolean): string {
  const d = l._data;
  const end = trim ? l.getTrimmedLength() : d.length / 3;
  codes.length = 0;
  let out = "";
  for (let x = 0; x < end; ) {
    const c = d[3 * x]!;
    const cp = c & 0x1fffff;
    if (c & 0x200000) {
      const str = l._combined[x] ?? "";
      for (let j = 0; j < str.length; j++) codes.push(str.charCodeAt(j));
    } else if (cp === 0) codes.push(32);
    else if (cp < 0x10000) codes.push(cp);
    else codes.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    x += c >> 22 || 1;
    if (codes.length > 4096) {
      out += String.fromCharCode.apply(null, codes);
      codes.length = 0;
    }
  }
  return out + String.fromCharCode.apply(null, codes);
}

/** A terminal's normal-screen history and screen as text: wrapped rows joined into one line. */
export function terminalText(term: Terminal): string {
  const raw = rawLines(term);
  const buf = term.buffer.normal;
  const n = raw ? raw.length : buf.length;
  const lines: string[] = [];
  for (let y = 0; y < n; y++) {
    const line = raw ? raw.get(y) : buf.getLine(y);
    if (!line) continue;
    const next = y + 1 < n ? (raw ? raw.get(y + 1) : buf.getLine(y + 1)) : undefined;
    const continues = next?.isWrapped === true;
    const s = raw ? rawText(line as RawLine, !continues) : (line as ReturnType<typeof buf.getLine>)!.translateToString(!continues);
    if (line.isWrapped && lines.length) lines[lines.length - 1] += s;
    else lines.push(s);
  }
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

/** The same through xterm's public API only (tests check the fast path against it). */
export function terminalTextPublic(term: Terminal): string {
  const buf = term.buffer.normal;
  const lines: string[] = [];
  for (let y = 0; y < buf.length; y++) {
    const line = buf.getLine(y)!;
    const s = line.translateToString(!(buf.getLine(y + 1)?.isWrapped === true));
    if (line.isWrapped && lines.length) lines[lines.length - 1] += s;
    else lines.push(s);
  }
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

/** The program's current directory (Linux /proc); else where it started. */
async function currentDir(p: Pane): Promise<string> {
  if (process.platform === "linux" && !p.exited) {
    try {
      return await readlink(`/proc/${p.pid}/cwd`);
    } catch {}
  }
  return p.cwd;
}

function extraEnv(p: Pane, base: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.env)) if (!PER_PANE.has(k) && base[k] !== v) out[k] = v;
  return out;
}

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

export class Snapshotter {
  /** Scrollback text by pane id (and its encoded form once made), valid while not in `dirty`. */
  private cache = new Map<number, { text: string; quoted?: Uint8Array }>();
  private dirty = new Set<number>();

  constructor(private session: Session) {}

  /** A pane printed something (bus `pane_output`): its text must be taken again. */
  markDirty(pane: number): void {
    if (this.cache.has(pane)) this.dirty.add(pane);
  }

  /** Whether any pane's scrollback changed since it was last taken. */
  get scrollbackStale(): boolean {
    return this.dirty.size > 0;
  }

  forget(pane: number): void {
    this.cache.delete(pane);
    this.dirty.delete(pane);
  }

  /**
   * Take a save. `fresh` waits (briefly) for every pane's pending output to be parsed first; the
   * text of panes that printed nothing since the last capture is reused either way (their output
   * events say so), unless `full` asks to take every pane again.
   */
  async capture(opts: { fresh?: boolean; full?: boolean } = {}): Promise<SaveBody> {
    if (opts.full) this.cache.clear(), this.dirty.clear();
    const s = this.session;
    const area = s.layoutArea();
    const jobs: { pane: Pane; rec: SavedPane }[] = [];
    const body: SaveBody = {
      size: { ...s.size },
      current: s.current,
      workspaces: s.workspaces.map((ws) => ({
        name: ws.name,
        active: ws.active,
        tabs: ws.tabs.map((tab): SavedTab => {
          const ids = panesOf(tab.layout);
          const rects = new Map<number, SavedRect>();
          for (const r of paneRects(tab.layout, area, ids.length > 1)) rects.set(r.pane, { x: r.x, y: r.y, cols: r.cols, rows: r.rows });
          for (const r of s.rects(tab)) rects.set(r.pane, { x: r.x, y: r.y, cols: r.cols, rows: r.rows });
          const panes: SavedPane[] = [];
          for (const id of ids) {
            const p = s.panes.get(id);
            const rec: SavedPane = {
              id,
              command: p ? [...p.command] : [],
              argv: p ? [...p.argv] : [],
              cwd: p?.cwd ?? "/",
              env: p ? extraEnv(p, s.opts.baseEnv) : {},
              rect: rects.get(id),
              scrollback: "",
            };
            if (p?.title) rec.name = p.title;
            if (p?.env.WS_WORKSTREAM) rec.workstream = p.env.WS_WORKSTREAM;
            panes.push(rec);
            if (p) jobs.push({ pane: p, rec });
          }
          const t: SavedTab = { layout: structuredClone(tab.layout), focused: tab.focused, panes };
          if (tab.name !== undefined) t.name = tab.name;
          if (tab.project !== undefined) t.project = tab.project;
          if (tab.zoomed !== undefined) t.zoomed = tab.zoomed;
          return t;
        }),
      })),
    };
    const live = new Set(jobs.map((j) => j.pane.id));
    for (const id of [...this.cache.keys()]) if (!live.has(id)) this.forget(id);
    // Let pending output be parsed first: all of it when asked (shutdown_keep, session_save), else
    // that of panes never taken before (a restored preface may still be parsing). Bounded either way.
    const fresh = opts.fresh === true;
    const waits = jobs.filter((j) => fresh || !this.cache.has(j.pane.id)).map((j) => j.pane.flushed().catch(() => {}));
    if (waits.length) await Promise.race([Promise.all(waits), Bun.sleep(fresh ? 1000 : 250)]);
    const cwds = await Promise.all(jobs.map((j) => currentDir(j.pane)));
    for (const [i, { pane, rec }] of jobs.entries()) {
      rec.cwd = cwds[i]!;
      rec.scrollback = await this.text(pane);
    }
    return body;
  }

  /** The encoded scrollback of a pane as captured, reused while its text is the same. */
  quote(text: string, pane: SavedPane): Uint8Array {
    const c = this.cache.get(pane.id);
    if (c && c.text === text) return (c.quoted ??= quoteText(text));
    return quoteText(text);
  }

  private async text(p: Pane): Promise<string> {
    const cached = this.cache.get(p.id);
    if (cached !== undefined && !this.dirty.has(p.id)) return cached.text;
    this.dirty.delete(p.id);
    let text: string;
    try {
      text = terminalText(p.term);
    } catch {
      return cached?.text ?? ""; // disposed meanwhile
    }
    this.cache.set(p.id, { text });
    await yieldNow();
    return text;
  }
}
