// Taking a save of the live model. The structure (workspaces, tabs, layouts, focus) is copied in
// one synchronous step, so it is consistent; scrollback text and working directories are filled in
// afterwards, yielding between panes so a big save never stalls the daemon for long. Scrollback is
// captured again only for panes that printed something since their last capture.
import { readlink } from "node:fs/promises";
import type { Terminal } from "@xterm/headless";
import { paneRects, panesOf } from "../../model/layout";
import type { Pane } from "../../model/pane";
import type { Session } from "../../server/session";
import type { SaveBody, SavedPane, SavedRect, SavedTab } from "./format";

/** Variables every pane gets afresh from the server that starts it; never carried over. */
const PER_PANE = new Set(["WS_SOCKET", "WS_PANE_ID", "WS_WORKSPACE", "PWD"]);

/** A terminal's normal-screen history and screen as text: wrapped rows joined into one line. */
export function terminalText(term: Terminal): string {
  const buf = term.buffer.normal;
  const n = buf.length;
  const lines: string[] = [];
  for (let y = 0; y < n; y++) {
    const line = buf.getLine(y);
    if (!line) continue;
    const next = y + 1 < n ? buf.getLine(y + 1) : undefined;
    const continues = next?.isWrapped === true;
    const s = line.translateToString(!continues);
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
  /** Scrollback text by pane id, valid while the pane is not in `dirty`. */
  private cache = new Map<number, string>();
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

  /** Take a save. `fresh` waits (briefly) for every pane's pending output to be parsed first. */
  async capture(opts: { fresh?: boolean } = {}): Promise<SaveBody> {
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
    for (const { pane, rec } of jobs) {
      rec.cwd = await currentDir(pane);
      rec.scrollback = await this.text(pane, opts.fresh === true);
    }
    return body;
  }

  private async text(p: Pane, fresh: boolean): Promise<string> {
    const cached = this.cache.get(p.id);
    if (cached !== undefined && !this.dirty.has(p.id) && !fresh) return cached;
    // A pane never taken before may still be parsing its first output (a restored preface).
    if (fresh || cached === undefined) await Promise.race([p.flushed(), Bun.sleep(fresh ? 500 : 100)]).catch(() => {});
    this.dirty.delete(p.id);
    let text: string;
    try {
      text = terminalText(p.term);
    } catch {
      return cached ?? ""; // disposed meanwhile
    }
    this.cache.set(p.id, text);
    await yieldNow();
    return text;
  }
}
