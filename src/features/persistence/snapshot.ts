// Taking a save of the live model. The structure (workspaces, tabs, layouts, focus) is copied in
// one synchronous step, so it is consistent; scrollback text and working directories are filled in
// afterwards, yielding between panes so a big save never stalls the daemon for long. Scrollback is
// taken again only for panes that printed something since the last save; the others' is copied
// from the file written last (save-writer.ts), so no pane's text is kept between saves.
import type { GrantLevel } from "../../protocol/grants";
import { paneRects, panesOf } from "../../model/layout";
import type { Pane } from "../../model/pane";
import type { Session } from "../../model/session";
import { platformKind } from "../../platform";
import { paneDirectory } from "../../model/process-info";
import type { PaneBytes, PaneText } from "./save-writer";
import { encodeText, type SaveBody, type SavedAgent, type SavedPane, type SavedPrompt, type SavedRect, type SavedTab } from "./format";
import { workstreamsOf } from "../workstreams/table";

/** Variables every pane gets afresh from the server that starts it; never carried over. */
const PER_PANE = new Set(["WS_SOCKET", "WS_PANE_KEY", "WS_PANE_ID", "WS_WORKSPACE", "PWD"]);

/** The pane's directory (process-info.ts), asking the system only where it is cheap (Linux
 * /proc): one lsof per pane on every save costs more than the cwd is worth. */
async function currentDir(p: Pane): Promise<string> {
  return (await paneDirectory(p, { ask: platformKind() === "linux" })) ?? p.cwd;
}

function extraEnv(p: Pane, base: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.env)) if (!PER_PANE.has(k) && base[k] !== v) out[k] = v;
  return out;
}

/** How long a fresh save (shutdown_keep, session_save) waits for pending output to be parsed.
 * Normally milliseconds; long enough for 100 just-restored panes to finish parsing their old
 * scrollback, which a save taken too early would otherwise cut short. */
const FRESH_WAIT_MS = 10_000;

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

/** A save taken: its structure, and each pane's scrollback to write (by pane id). */
export interface Capture {
  body: SaveBody;
  texts: Map<number, PaneText>;
  /** Milliseconds of it spent encoding the text taken. */
  encodeMs: number;
}

export class Snapshotter {
  /** Where each pane's scrollback lies in the file written last (save-writer.ts), by pane id. */
  private saved = new Map<number, PaneBytes>();
  /** Panes that printed something since their text was last taken. */
  private dirty = new Set<number>();
  /** Panes whose text the save being written took: what they print from now on is new. */
  private taking = new Set<number>();

  /** `agentOf`: the status to save for a pane's agent (the agents feature's), if any;
   * `promptsOf`: the prompts queued for it. */
  constructor(
    private session: Session,
    private agentOf: (pane: number) => SavedAgent | undefined = () => undefined,
    private promptsOf: (pane: number) => SavedPrompt[] | undefined = () => undefined,
    private grantsOf: (pane: number) => GrantLevel | undefined = () => undefined,
  ) {}

  /** A pane printed something (bus `pane_output`): its text must be taken again. */
  markDirty(pane: number): void {
    // (A pane not saved yet is taken by the next save whatever it prints: its output alone calls
    // for none, as after a restore, whose file already holds every pane.)
    if (this.saved.has(pane) || this.taking.has(pane)) this.dirty.add(pane);
  }

  /** Whether any pane's scrollback changed since it was last taken. */
  get scrollbackStale(): boolean {
    return this.dirty.size > 0;
  }

  forget(pane: number): void {
    this.saved.delete(pane);
    this.dirty.delete(pane);
    this.taking.delete(pane);
  }

  /** A save was written: where each pane's scrollback now lies. */
  written(panes: Map<number, PaneBytes>): void {
    this.saved = panes;
    this.taking.clear();
  }

  /** A save failed, or the last file no longer holds what it did: every pane is taken again, by
   * the next periodic save at the latest. */
  lost(): void {
    for (const id of [...this.saved.keys(), ...this.taking]) this.dirty.add(id);
    this.saved.clear();
    this.taking.clear();
  }

  /**
   * Take a save to write (save-writer.ts). `fresh` waits (briefly) for every pane's pending output
   * to be parsed first; the text of panes that printed nothing since the last save is copied from
   * it either way (their output events say so), unless `full` asks to take every pane again.
   */
  async take(opts: { fresh?: boolean; full?: boolean } = {}): Promise<Capture> {
    if (opts.full) {
      this.saved.clear();
      this.dirty.clear();
    }
    const { body, jobs } = this.structure();
    const live = new Set(jobs.map((j) => j.pane.id));
    for (const id of [...this.saved.keys()]) if (!live.has(id)) this.forget(id);
    // Let pending output be parsed first: all of it when asked (shutdown_keep, session_save), else
    // that of panes never taken before (a restored preface may still be parsing). Bounded either way.
    await this.settle(jobs, opts.fresh === true, (p) => !this.saved.has(p.id));
    const texts = new Map<number, PaneText>();
    const took = { encodeMs: 0 };
    for (const { pane } of jobs) texts.set(pane.id, await this.text(pane, took));
    return { body, texts, encodeMs: took.encodeMs };
  }

  /** A save's body whole, every pane's text in it, taken afresh (what was saved last is not used
   * nor changed). */
  async capture(opts: { fresh?: boolean } = {}): Promise<SaveBody> {
    const { body, jobs } = this.structure();
    await this.settle(jobs, opts.fresh === true, () => true);
    for (const { pane, rec } of jobs) {
      try {
        rec.scrollback = pane.emulator.captureText(false);
      } catch {} // disposed meanwhile
      await yieldNow();
    }
    return body;
  }

  /** Wait (bounded) for pending output to be parsed, every pane's when `fresh`, else `waitFor`'s;
   * and read the panes' directories. */
  private async settle(jobs: { pane: Pane; rec: SavedPane }[], fresh: boolean, waitFor: (p: Pane) => boolean): Promise<void> {
    const waits = jobs.filter((j) => fresh || waitFor(j.pane)).map((j) => j.pane.flushed().catch(() => {}));
    if (waits.length) await Promise.race([Promise.all(waits), Bun.sleep(fresh ? FRESH_WAIT_MS : 250)]);
    const cwds = await Promise.all(jobs.map((j) => currentDir(j.pane)));
    for (const [i, { rec }] of jobs.entries()) rec.cwd = cwds[i]!;
  }

  /** The model's structure as a save body (scrollback left empty), and its live panes' records. */
  private structure(): { body: SaveBody; jobs: { pane: Pane; rec: SavedPane }[] } {
    const s = this.session;
    const area = s.layoutArea();
    const jobs: { pane: Pane; rec: SavedPane }[] = [];
    const body: SaveBody = {
      size: { ...s.size },
      current: s.current,
      next_ids: s.nextIds,
      workspaces: s.workspaces.map((ws) => ({
        id: ws.id,
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
            if (p?.name) rec.label = p.name;
            if (p?.keep) rec.keep = true;
            if (p?.box) rec.box = { ...p.box };
            if (p?.resume !== undefined) rec.resume = p.resume === false ? false : [...p.resume];
            const grants = p && this.grantsOf(id);
            if (grants) rec.grants = grants;
            const agent = p && this.agentOf(id);
            if (agent) rec.agent = agent;
            const prompts = p && this.promptsOf(id);
            if (prompts) rec.prompts = prompts;
            if (p?.env.WS_WORKSTREAM) rec.workstream = p.env.WS_WORKSTREAM;
            if (tab.project !== undefined) rec.project = tab.project;
            panes.push(rec);
            if (p) jobs.push({ pane: p, rec });
          }
          const t: SavedTab = { id: tab.id, layout: structuredClone(tab.layout), focused: tab.focused, panes };
          if (tab.name !== undefined) t.name = tab.name;
          if (tab.project !== undefined) t.project = tab.project;
          if (tab.zoomed !== undefined) t.zoomed = tab.zoomed;
          return t;
        }),
      })),
    };
    const workstreams = [...workstreamsOf(s).values()].map(({ name, repo, dir, branch, pr, review, checkpoints }) => ({ name, repo, dir, branch, ...(pr !== undefined ? { pr } : {}), ...(review ? { review } : {}), ...(checkpoints ? { checkpoints: { ...checkpoints } } : {}) }));
    if (workstreams.length) body.workstreams = workstreams;
    return { body, jobs };
  }

  /** A pane's scrollback: where it lies in the last file while it printed nothing since, else
   * taken now and encoded (the text itself is let go of at once). */
  private async text(p: Pane, took: { encodeMs: number }): Promise<PaneText> {
    const saved = this.saved.get(p.id);
    if (saved !== undefined && !this.dirty.has(p.id)) return saved;
    this.dirty.delete(p.id);
    this.taking.add(p.id);
    let text: string;
    try {
      // The emulator keeps what it read last time: reused for rows that cannot have changed,
      // unless this pane's text is being taken afresh.
      text = p.emulator.captureText(saved !== undefined);
    } catch {
      return saved ?? encodeText(""); // disposed meanwhile
    }
    const t0 = performance.now();
    const bytes = encodeText(text);
    took.encodeMs += performance.now() - t0;
    await yieldNow();
    return bytes;
  }
}
