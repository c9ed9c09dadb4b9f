// The daemon's workstreams: new_workstream (worktree, copy, setup, the template's tab), open_review
// (a review tab over a worktree the client made), workstream_done (the checks, the tab, the
// worktree) and the dashboard's rows. The model keeps the records (Session.addWorkstream); git runs
// asynchronously, off the path of every other request.
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Session } from "../../model/session";
import type { Tab, Workspace } from "../../model/workspace";
import type { TreeNode } from "../../model/tree";
import { panesOf } from "../../model/layout";
import type { Workstream } from "./workstream";
import { WsError, have } from "../../protocol/errors";
import { DEFAULT_REVIEW_COMMAND, fill, instantiate, loadTemplate, placeholderEnv, setupCommands, type Template, type Vars } from "./templates";
import { pathNameProblem } from "../../protocol/names";
import { copyFiles, copyList, expandHome, makeWorktree, removeWorktree, repoName, repoRoot, runSetup, undoWorktree, unfinishedWork, worktreesRoot } from "./worktree";
import { readProject } from "../projects/store";
import { parentDir } from "../../paths";
import { ShipState } from "./ship-state";
import { PrStatus } from "./pr-status";
import { Checkpointer } from "./checkpoint-service";
import type { FanService } from "./fan";
import { WorkstreamRecords } from "./records";
import { type WorkstreamTable, workstreamsOf } from "./table";

export interface NewWorkstream {
  template: string;
  name: string;
  branch?: string;
  pr?: number;
  project?: string;
  /** Where the CLI runs: the repo when neither the template nor the project names one. */
  repo?: string;
  /** A commit the new branch starts from instead of the template's base (ws fan). */
  startCommit?: string;
}

/** A workstream made up to its tab (WorkstreamService.prepare). */
export interface Prepared {
  p: NewWorkstream;
  template: Template;
  vars: Vars;
  repo: string;
  dir: string;
  branch: string;
  tree: TreeNode;
  workspace: string;
  /** Remove the worktree again (and the branch made for it), freeing the name. */
  undo: () => Promise<void>;
}

export interface OpenReview {
  workspace: string;
  title: string;
  name: string;
  template: string;
  repo: string;
  dir: string;
  branch?: string;
  vars: [string, string][];
  fresh: boolean;
  focus: boolean;
}

export interface Opened {
  ws: Workspace;
  tab: Tab;
  dir: string;
  branch?: string;
}

export interface DashboardWorkstream {
  name: string;
  workspace: string;
  pane: number;
  branch?: string;
  pr?: string;
  /** Commits no remote branch has, and whether the branch is on its remote (v6 replies only). */
  ahead?: number;
  pushed?: boolean;
}

export interface WorkstreamRow {
  name: string;
  state: "open" | "stranded";
  repo: string;
  dir: string;
  branch: string;
  pr?: number;
  review?: boolean;
  workspace?: string;
  tab?: number;
  pane?: number;
  /** Whether its worktree's directory is there. */
  worktree: boolean;
}

export class WorkstreamService {
  /** Names being made now: a second request for one is refused while the first runs. */
  private pending = new Set<string>();
  readonly prs = new PrStatus();
  readonly shipStates = new ShipState();
  readonly checkpoints: Checkpointer;
  /** The workstreams' records on disk (the feature attaches them to the session at start). */
  readonly records: WorkstreamRecords;
  /** ws fan (fan.ts); the feature sets it, as it knows the agents. */
  fans?: FanService;

  /** The session's workstreams (table.ts). */
  private get table(): WorkstreamTable {
    return workstreamsOf(this.session);
  }

  constructor(
    private session: Session,
    private env: Record<string, string | undefined> = process.env,
  ) {
    this.checkpoints = new Checkpointer(session);
    this.records = new WorkstreamRecords(env);
  }

  /** Where Neovims of template panes listen, so ws open can drive them (features/nvim). */
  private get socketDir(): string {
    return parentDir(this.session.opts.socketPath);
  }

  private projectRepo(slug: string): string | undefined {
    const repo = readProject(slug, this.env)?.repo;
    return repo !== undefined ? expandHome(repo, this.env) : undefined;
  }

  /** A workstream's name names its worktree's directory: one path component, no option. */
  checkName(name: string): void {
    const problem = pathNameProblem(name);
    if (problem) throw new WsError(`invalid workstream name ${JSON.stringify(name)}: it ${problem}`, "invalid_params", { param: "name" });
  }

  checkFree(name: string): void {
    if (this.table.has(name) || this.pending.has(name))
      throw new WsError(`there is a workstream "${name}" already: ws done ${name} first, or pick another name`, "workstream_exists", { param: "name" });
  }

  /** new_workstream: the worktree, its files, setup, then the template's tab. A failure undoes the
   * worktree (and a branch made for it) and changes nothing in the session. */
  async create(p: NewWorkstream): Promise<Opened> {
    const made = await this.prepare(p);
    try {
      const { ws, tab } = this.openTab(made.workspace, made.tree, p.name, true);
      return this.record(made, ws, tab);
    } catch (e) {
      await made.undo();
      throw e;
    }
  }

  /** A workstream up to its tab: the worktree, its files and setup, and the tab's tree, not yet
   * opened (ws fan tiles several in one tab). The name is held until `undo` or `record`. A failure
   * undoes the worktree (and a branch made for it). */
  async prepare(p: NewWorkstream): Promise<Prepared> {
    if (p.branch !== undefined && p.pr !== undefined) throw new WsError("give branch or pr, not both", "invalid_params", { param: "pr" });
    this.checkName(p.name);
    this.checkFree(p.name);
    this.pending.add(p.name);
    try {
      const t = await loadTemplate(p.template, this.env);
      const from = t.repo !== undefined ? expandHome(t.repo, this.env) : ((p.project !== undefined ? this.projectRepo(p.project) : undefined) ?? p.repo);
      if (from === undefined)
        throw new WsError(`no repo for workstream "${p.name}": template ${t.name} names none${p.project ? `, nor does project ${p.project}` : ""}; run ws new inside a git checkout or give --repo DIR`, "not_a_repo", { param: "repo" });
      const repo = await repoRoot(from);
      const dir = join(worktreesRoot(this.env), repoName(repo), p.name);
      const wt = await makeWorktree({ repo, dir, name: p.name, branch: p.branch, pr: p.pr, base: t.base, ...(p.startCommit ? { startCommit: p.startCommit } : {}) });
      try {
        const vars: Vars = { name: p.name, branch: wt.branch, dir, repo, pr: p.pr !== undefined ? String(p.pr) : "", review_command: this.env.WS_REVIEW_COMMAND ?? DEFAULT_REVIEW_COMMAND };
        await copyFiles(repo, dir, await copyList(repo, t.copy));
        await runSetup(setupCommands(t, vars), dir, { ...placeholderEnv(vars), WS_WORKSTREAM: p.name });
        const tree = instantiate(t, vars, dir, p.name, this.socketDir);
        const undo = async () => {
          this.pending.delete(p.name);
          await undoWorktree(wt);
        };
        return { p, template: t, vars, repo, dir, branch: wt.branch, tree, workspace: fill(t.workspace ?? repoName(repo), vars), undo };
      } catch (e) {
        await undoWorktree(wt);
        throw e;
      }
    } catch (e) {
      this.pending.delete(p.name);
      throw e;
    }
  }

  /** Record a prepared workstream whose tree is now open in `tab` (its own, or one it shares). */
  record(made: Prepared, ws: Workspace, tab: Tab): Opened {
    const { p } = made;
    this.pending.delete(p.name);
    const policy = made.template.checkpoints;
    this.table.add({ name: p.name, repo: made.repo, dir: made.dir, branch: made.branch, ...(p.pr !== undefined ? { pr: p.pr } : {}), ...(policy ? { checkpoints: { ...policy } } : {}), tab: tab.id });
    if (p.project !== undefined) this.session.linkProject(tab.focused, p.project);
    return { ws, tab, dir: made.dir, branch: made.branch };
  }

  /** The tab, in workspace `name` (made when missing). */
  openTab(workspace: string, tree: TreeNode, name: string, focus: boolean): { ws: Workspace; tab: Tab } {
    const ws = this.session.findWorkspace(workspace);
    if (ws) return { ws, tab: this.session.applyTree(ws, tree, { name, focus }) };
    return this.session.applyTreeInNewWorkspace(workspace, tree, { name, focus });
  }

  /** open_review: the open tab for this name (unless fresh), else a new one from the template. */
  async openReview(p: OpenReview): Promise<{ pane: number }> {
    this.checkName(p.name);
    const context = p.vars.find(([k]) => k === "context")?.[1];
    for (const [field, v] of [["dir", p.dir], ["repo", p.repo], ["vars.context", context ?? "/"]] as const)
      if (!isAbsolute(v)) throw new WsError(`${field} must be an absolute path, not ${JSON.stringify(v)}`, "invalid_params", { param: field });
    const old = this.table.get(p.name);
    if ((old && !old.review) || this.pending.has(p.name)) this.checkFree(p.name); // a task's name, not a review's
    const at = old && this.table.tabOf(old);
    if (at && !p.fresh) {
      if (p.focus) this.session.focusTab(at.ws, at.tab);
      return { pane: at.tab.focused };
    }
    const t = await loadTemplate(p.template, this.env);
    const vars: Vars = { review_command: this.env.WS_REVIEW_COMMAND ?? DEFAULT_REVIEW_COMMAND, ...Object.fromEntries(p.vars), name: p.name, dir: p.dir, repo: p.repo, branch: p.branch ?? "" };
    const tree = instantiate(t, vars, p.dir, p.name, this.socketDir);
    // The old tab (fresh) goes only once the new one stands, which takes its place.
    const before = at && this.table.tabOf(old!);
    const { ws, tab } = this.openTab(p.workspace, tree, p.title, p.focus);
    if (before) {
      const index = before.ws.tabs.indexOf(before.tab);
      this.session.closeTab(before.ws, before.tab);
      if (before.ws === ws) this.session.moveTab(ws, tab, index);
    }
    const pr = Number(vars.pr);
    this.table.add({ name: p.name, repo: p.repo, dir: p.dir, branch: p.branch ?? "", ...(Number.isSafeInteger(pr) && pr > 0 ? { pr } : {}), tab: tab.id, review: true });
    this.prs.forget(p.name);
    this.shipStates.forget(p.name);
    return { pane: tab.focused };
  }

  /** The workstream a workstream_done means: by name, else the one whose tab holds the pane. */
  resolve(p: { name?: string; pane?: number }): Workstream {
    const names = [...this.table.keys()];
    if (p.name !== undefined) {
      const w = this.table.get(p.name);
      if (!w) throw new WsError(`no workstream "${p.name}"${have(names)}`, "not_a_workstream", { param: "name", available: names });
      return w;
    }
    if (p.pane === undefined) throw new WsError("give name or pane", "invalid_params", { param: "name" });
    this.session.pane(p.pane);
    const w = this.table.ofPane(p.pane) ?? this.table.get(this.session.pane(p.pane).env.WS_WORKSTREAM ?? "");
    if (!w) throw new WsError(`pane ${p.pane} is not in a workstream's tab${have(names)}`, "not_a_workstream", { param: "pane", available: names });
    return w;
  }

  /** workstream_done: refuse where the spec says, else remove the worktree, then close the tab and
   * forget the workstream. Either all of it happens or, when git refuses (files appeared since the
   * check, say), nothing but the refusal: the workstream and its tab stay. A second done for the
   * same workstream meanwhile waits for the first and shares its answer. */
  done(p: { name?: string; pane?: number; force: boolean }): Promise<void> {
    const w = this.resolve(p);
    const running = this.finishing.get(w.name);
    if (running) return running;
    const job = this.finish(w, p.force).finally(() => this.finishing.delete(w.name));
    this.finishing.set(w.name, job);
    return job;
  }

  /** Workstreams ws done is finishing now, by name. */
  private finishing = new Map<string, Promise<void>>();

  private async finish(w: Workstream, force: boolean): Promise<void> {
    this.refuseLastTab(w);
    if (!force) {
      const why = await unfinishedWork(w.dir, { review: w.review });
      if (why) throw why;
    }
    this.refuseLastTab(w); // the session may have changed while git looked
    // git checks again as it removes (without force it refuses a worktree with changes), so a
    // file that appeared since our look makes it refuse here, before anything is forgotten.
    await removeWorktree(w.repo, w.dir, force, worktreesRoot(this.env));
    // Now the rest can't fail. A caller inside the tab goes with it. (Should the tab have become
    // the last in ws meanwhile, it stays open, over a worktree that is gone.)
    const at = this.table.tabOf(w);
    const shared = at && [...this.table.values()].some((o) => o !== w && o.tab === w.tab);
    if (at && shared) for (const id of this.ownPanes(w)) this.session.closePane(id); // ws fan --tiled: only its own panes
    else if (at && !(this.session.workspaces.length === 1 && at.ws.tabs.length === 1)) this.session.closeTab(at.ws, at.tab);
    if (this.table.get(w.name) === w) this.table.remove(w.name);
    this.prs.forget(w.name);
    this.shipStates.forget(w.name);
    await this.checkpoints.remove(w); // never fails: a ref left over is harmless
  }

  /** The panes of w's tab that are its own: all of them, or in a tab it shares (ws fan --tiled)
   * those whose WS_WORKSTREAM names it. */
  ownPanes(w: Workstream): number[] {
    const at = this.table.tabOf(w);
    if (!at) return [];
    const panes = panesOf(at.tab.layout);
    const shared = [...this.table.values()].some((o) => o !== w && o.tab === w.tab);
    return shared ? panes.filter((id) => this.session.panes.get(id)?.env.WS_WORKSTREAM === w.name) : panes;
  }

  private refuseLastTab(w: Workstream): void {
    const at = this.table.tabOf(w);
    const shared = [...this.table.values()].some((o) => o !== w && o.tab === w.tab);
    if (at && !shared && this.session.workspaces.length === 1 && at.ws.tabs.length === 1)
      throw new WsError(`workstream "${w.name}" has the last tab in ws: open another tab first (ws tab new), then ws done again`, "last_pane");
  }

  /** The dashboard's rows: each workstream with an open tab, PR statuses as known now (asking gh
   * again in the background when they are old). */
  rowsNow(o: { ship?: boolean } = { ship: true }): DashboardWorkstream[] {
    return this.open().map(({ w, at }) => {
      const pr = this.prStatus(w).text;
      const ship = o.ship && !w.review ? this.shipStates.get(w.name, w.dir, w.branch).state : undefined;
      return { name: w.name, workspace: at.ws.name, pane: at.tab.focused, ...(w.branch ? { branch: w.branch } : {}), ...(pr ? { pr } : {}), ...(ship ?? {}) };
    });
  }

  /** The rows, waiting up to `waitMs` for PR statuses gh has not told yet (and, with `ship`, for
   * ship states git has not told yet). */
  async rows(waitMs: number, o: { ship?: boolean } = {}): Promise<DashboardWorkstream[]> {
    const pending = this.open().flatMap(({ w }) => {
      const s = this.prStatus(w);
      const ship = o.ship && !w.review ? this.shipStates.get(w.name, w.dir, w.branch) : undefined;
      return [...(s.text === undefined && s.pending ? [s.pending] : []), ...(ship && ship.state === undefined && ship.pending ? [ship.pending] : [])];
    });
    if (pending.length) await Promise.race([Promise.all(pending), Bun.sleep(waitMs)]);
    return this.rowsNow(o);
  }

  /** ws workstream list: every workstream the server knows (which is every record on disk, read at
   * start), open (its tab is there) or stranded (its tab is gone: ws done finishes it). */
  list(): WorkstreamRow[] {
    return [...this.table.values()]
      .map((w) => {
        const at = this.table.tabOf(w);
        return {
          name: w.name,
          state: at ? ("open" as const) : ("stranded" as const),
          repo: w.repo,
          dir: w.dir,
          branch: w.branch,
          ...(w.pr !== undefined ? { pr: w.pr } : {}),
          ...(w.review ? { review: true } : {}),
          ...(at ? { workspace: at.ws.name, tab: at.tab.id, pane: at.tab.focused } : {}),
          worktree: existsSync(w.dir),
        };
      })
      .sort((a, b) => a.repo.localeCompare(b.repo) || a.name.localeCompare(b.name));
  }

  private open(): { w: Workstream; at: { ws: Workspace; tab: Tab } }[] {
    return [...this.table.values()].flatMap((w) => {
      const at = this.table.tabOf(w);
      return at ? [{ w, at }] : [];
    });
  }

  private prStatus(w: Workstream) {
    return this.prs.get(w.name, w.dir, w.pr !== undefined ? String(w.pr) : w.branch);
  }
}
