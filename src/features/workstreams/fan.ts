// ws fan: one task raced by N agents. N workstreams NAME-1…NAME-N from one base commit, a tab each
// (or tiled in one tab), the same prompt typed into each agent once it reports ready (or after the
// template's start-up time); then status (agent, changes, the template's check run when each agent
// is done), a compare tab, and keep (one stays, the others go as ws done --force does). Fans are
// kept in memory: a restart forgets them (their workstreams stay, each a workstream of its own).
import type { Session } from "../../model/session";
import type { TreeNode } from "../../model/tree";
import type { Tab, Workspace } from "../../model/workspace";
import type { AgentService } from "../agents/service";
import { WsError, have } from "../../protocol/errors";
import { pathNameProblem } from "../../protocol/names";
import { type Prepared, type WorkstreamService } from "./service";
import { checkCommand, DEFAULT_STARTUP_MS, placeholderEnv } from "./templates";
import { changesSince, runCheck, worktreeChanges, type Changes, type CheckResult } from "./fan-changes";
import { tabWhere } from "../../model/session-lookups";
import { git, gitOk, onPath } from "./git";
import { log } from "../../log";
import { type WorkstreamTable, workstreamsOf } from "./table";

/** Neovim's diff of the two sides (git difftool appends $LOCAL $REMOTE). Its two windows are made
 * equal on start and on every resize: a compare pane is spawned and then tiled, and nvim keeps a
 * split's widths from its first size, so a pane it started in at another size could leave one side
 * a few columns wide (the candidate's side unreadable: the fan test's timeout on a loaded CI). */
const NVIM_DIFF = "nvim -d -c 'autocmd VimResized * wincmd =' -c 'wincmd ='";

/** Candidates one fan may have, and fans kept at once. */
export const MAX_CANDIDATES = 8;
export const MAX_FANS = 32;

/** Gives a prompt to an agent's pane: fan_start hands it to the prompt queue (ws agent send --when
 * idle's path), which types it at once when the agent waits for input, else when it next does. */
export type PromptSender = (pane: number, text: string) => void;

interface Candidate {
  k: number;
  workstream: string;
  branch: string;
  dir: string;
  env: Record<string, string>;
  /** The pane the prompt went to (the agent's when it reported, else the candidate's first pane). */
  pane?: number;
  prompted: boolean;
  /** Turns the agent finished since the prompt. */
  turns: number;
  check?: CheckResult;
  checking: boolean;
  /** The agent finished again while its check ran: run it once more after. */
  recheck: boolean;
  timer?: ReturnType<typeof setTimeout>;
  /** Type the prompt into this pane (or the candidate's first); set while it waits to be typed. */
  deliver?: (pane?: number) => void;
}

interface Fan {
  name: string;
  template: string;
  prompt: string;
  base: string;
  repo: string;
  tiled: boolean;
  check?: string[];
  candidates: Candidate[];
  /** The tab ws fan compare opened (closed by keep, or by the next compare). */
  compareTab?: number;
}

/** One candidate in ws fan compare: its changes against the fan's base (worktreeChanges). */
export interface CompareRow {
  k: number;
  workstream: string;
  tree: string;
  files: number;
  added: number;
  removed: number;
  paths: string[];
}

export interface FanStart {
  count: number;
  template: string;
  name: string;
  prompt: string;
  tiled: boolean;
  repo?: string;
  project?: string;
}

/** A candidate fan_start opened. */
export interface FanOpened {
  k: number;
  workstream: string;
  pane: number;
  dir: string;
  branch: string;
  workspace: string;
  tab: number;
}

export interface FanRow {
  k: number;
  workstream: string;
  branch: string;
  /** Closed: ws done (or keep) finished it. */
  open: boolean;
  pane?: number;
  /** The agent's status (blocked, working, done, idle), null when none reports. */
  status: string | null;
  prompted: boolean;
  turns: number;
  files?: number;
  added?: number;
  removed?: number;
  /** none (the template has no check), waiting (the agent is not done yet), running, passed, failed. */
  check: "none" | "waiting" | "running" | "passed" | "failed";
  exit_code?: number;
  check_output?: string;
}

const READY = new Set(["idle", "done"]);

export class FanService {
  private fans = new Map<string, Fan>();

  /** The session's workstreams (table.ts). */
  private get table(): WorkstreamTable {
    return workstreamsOf(this.session);
  }

  constructor(
    private session: Session,
    private workstreams: WorkstreamService,
    private agents: () => AgentService | undefined,
  ) {
    session.bus.on((e) => {
      if (e.type === "agent_status") this.onStatus(e.pane, e.status, e.before);
      else if (e.type === "workstream_closed") this.onClosed(e.workstream);
    });
  }

  /** fan_start: the candidates, their tabs, then the prompt into each (in the background). */
  async start(p: FanStart, send: PromptSender): Promise<{ fan: Fan; opened: FanOpened[] }> {
    if (!Number.isSafeInteger(p.count) || p.count < 1 || p.count > MAX_CANDIDATES)
      throw new WsError(`a fan has 1 to ${MAX_CANDIDATES} candidates, not ${p.count}`, "invalid_params", { param: "count" });
    const bad = pathNameProblem(p.name);
    if (bad) throw new WsError(`invalid fan name ${JSON.stringify(p.name)}: it ${bad}`, "invalid_params", { param: "name" });
    if (this.fans.has(p.name)) throw new WsError(`there is a fan "${p.name}" already: ws fan keep ${p.name} K first, or pick another name`, "workstream_exists", { param: "name" });
    if (this.fans.size >= MAX_FANS) throw new WsError(`${MAX_FANS} fans are open: keep one (ws fan keep NAME K) first`, "limit_exceeded", { param: "name" });
    if (p.prompt.trim() === "") throw new WsError("the prompt is empty", "invalid_params", { param: "prompt" });
    const names = Array.from({ length: p.count }, (_, i) => `${p.name}-${i + 1}`);
    for (const n of names) this.workstreams.checkName(n), this.workstreams.checkFree(n);

    // Every candidate from one commit: the first's start, whatever the remote does meanwhile.
    const made: Prepared[] = [];
    const undoAll = () => Promise.all(made.map((m) => m.undo()));
    let base = "";
    try {
      for (const name of names) {
        made.push(await this.workstreams.prepare({ template: p.template, name, repo: p.repo, project: p.project, ...(base ? { startCommit: base } : {}) }));
        if (!base) base = await gitOk(made[0]!.dir, ["rev-parse", "HEAD"], "ws fan");
      }
    } catch (e) {
      await undoAll();
      throw e;
    }
    let opened: { ws: Workspace; tab: Tab; pane: number }[];
    try {
      opened = this.openTabs(made, p);
    } catch (e) {
      await undoAll();
      throw e;
    }
    const t = made[0]!.template;
    const fan: Fan = {
      name: p.name,
      template: p.template,
      prompt: p.prompt,
      base,
      repo: made[0]!.repo,
      tiled: p.tiled,
      ...(t.check !== undefined ? { check: checkCommand(t, made[0]!.vars) } : {}),
      candidates: made.map((m, i) => ({
        k: i + 1,
        workstream: m.p.name,
        branch: m.branch,
        dir: m.dir,
        env: { ...placeholderEnv(m.vars), WS_WORKSTREAM: m.p.name },
        prompted: false,
        turns: 0,
        checking: false,
        recheck: false,
      })),
    };
    this.fans.set(fan.name, fan);
    this.session.bus.emit({ type: "fan_started", fan: fan.name, template: fan.template, workstreams: names, base, tiled: fan.tiled });
    const startup = t.startup_ms ?? DEFAULT_STARTUP_MS;
    for (const c of fan.candidates) this.whenReady(fan, c, startup, send);
    return { fan, opened: opened.map((o, i) => ({ k: i + 1, workstream: names[i]!, pane: o.pane, dir: made[i]!.dir, branch: made[i]!.branch, workspace: o.ws.name, tab: o.tab.id })) };
  }

  /** A tab each, or one tab tiling them all. When one fails, nothing stays open. */
  private openTabs(made: Prepared[], p: FanStart): { ws: Workspace; tab: Tab; pane: number }[] {
    const done: { ws: Workspace; tab: Tab; pane: number }[] = [];
    try {
      if (p.tiled) {
        const { ws, tab } = this.workstreams.openTab(made[0]!.workspace, tile(made.map((m) => m.tree)), p.name, true);
        for (const m of made) {
          this.workstreams.record(m, ws, tab);
          const w = this.table.get(m.p.name)!;
          done.push({ ws, tab, pane: this.workstreams.ownPanes(w)[0] ?? tab.focused });
        }
      } else {
        made.forEach((m, i) => {
          const { ws, tab } = this.workstreams.openTab(m.workspace, m.tree, m.p.name, i === 0);
          this.workstreams.record(m, ws, tab);
          done.push({ ws, tab, pane: tab.focused });
        });
        const first = done[0]!;
        this.session.focusTab(first.ws, first.tab);
      }
      return done;
    } catch (e) {
      for (const m of made) if (this.table.has(m.p.name)) this.table.remove(m.p.name);
      for (const d of new Set(done.map((x) => x.tab)))
        for (const ws of this.session.workspaces) if (ws.tabs.includes(d) && !(this.session.workspaces.length === 1 && ws.tabs.length === 1)) this.session.closeTab(ws, d);
      throw e;
    }
  }

  /** The candidate's panes now (its own, in a tiled tab). */
  private panes(c: Candidate): number[] {
    const w = this.table.get(c.workstream);
    return w ? this.workstreams.ownPanes(w) : [];
  }

  private agentPane(c: Candidate): number | undefined {
    const agents = this.agents();
    if (c.pane !== undefined && agents?.status(c.pane)) return c.pane;
    return this.panes(c).find((id) => agents?.status(id) !== undefined);
  }

  /** Type the prompt once the agent reports ready; after `startup` ms, into its first pane anyway. */
  private whenReady(fan: Fan, c: Candidate, startup: number, send: PromptSender): void {
    const deliver = (pane?: number) => {
      if (c.prompted) return;
      c.deliver = undefined;
      clearTimeout(c.timer);
      c.timer = undefined;
      const target = pane ?? this.panes(c)[0];
      if (target === undefined) return; // closed meanwhile
      c.prompted = true;
      c.pane = target;
      try {
        send(target, fan.prompt);
      } catch (e) {
        log.error(`fan ${fan.name}: typing the prompt into ${c.workstream}: ${(e as Error).message}`);
      }
    };
    c.deliver = deliver;
    const pane = this.agentPane(c);
    if (pane !== undefined && READY.has(this.agents()!.status(pane)!.status)) return deliver(pane);
    c.timer = setTimeout(() => deliver(this.agentPane(c)), startup);
  }

  private candidateOf(pane: number): { fan: Fan; c: Candidate } | undefined {
    const w = this.table.ofPane(pane);
    if (!w) return undefined;
    for (const fan of this.fans.values()) for (const c of fan.candidates) if (c.workstream === w.name) return { fan, c };
    return undefined;
  }

  private onStatus(pane: number, status: string | null, before: string | null): void {
    const found = this.candidateOf(pane);
    if (!found || status === null) return;
    const { fan, c } = found;
    if (!c.prompted) {
      if (READY.has(status)) c.deliver?.(pane);
      return;
    }
    if (pane !== c.pane) return;
    // A turn is over: done, or idle straight after working (agents without a Stop hook).
    if (status === "done" || (status === "idle" && before === "working")) this.turnDone(fan, c);
  }

  private turnDone(fan: Fan, c: Candidate): void {
    c.turns++;
    if (!fan.check) return this.session.bus.emit({ type: "fan_candidate_done", fan: fan.name, workstream: c.workstream, k: c.k });
    if (c.checking) {
      c.recheck = true;
      return;
    }
    c.checking = true;
    runCheck(fan.check, c.dir, c.env)
      .then((r) => {
        c.check = r;
        this.session.bus.emit({ type: "fan_candidate_done", fan: fan.name, workstream: c.workstream, k: c.k, check: { exit_code: r.exit_code, passed: r.exit_code === 0, ms: r.ms } });
      })
      .catch((e) => log.error(`fan ${fan.name}: check in ${c.workstream}: ${(e as Error).message}`))
      .finally(() => {
        c.checking = false;
        if (c.recheck && this.table.has(c.workstream)) {
          c.recheck = false;
          c.turns--; // counted again by the rerun
          this.turnDone(fan, c);
        }
      });
  }

  /** ws done (or keep) finished a candidate: stop waiting on it; a fan with none left goes. */
  private onClosed(workstream: string): void {
    for (const fan of this.fans.values()) {
      const c = fan.candidates.find((x) => x.workstream === workstream);
      if (!c) continue;
      clearTimeout(c.timer);
      c.timer = undefined;
      c.prompted = true; // nothing more to type
      if (fan.candidates.every((x) => !this.table.has(x.workstream))) this.fans.delete(fan.name);
    }
  }

  /** The fan by its name, or the fan one of whose candidates is workstream `name`. */
  get(name: string): Fan {
    const fan = this.fans.get(name) ?? [...this.fans.values()].find((f) => f.candidates.some((c) => c.workstream === name));
    if (!fan) {
      const names = [...this.fans.keys()];
      throw new WsError(`no fan "${name}"${have(names)}`, "not_a_workstream", { param: "name", available: names });
    }
    return fan;
  }

  /** fan_status: each candidate's agent, changes since the base, and check. */
  async status(name: string): Promise<{ fan: Fan; rows: FanRow[] }> {
    const fan = this.get(name);
    const agents = this.agents();
    const rows = await Promise.all(
      fan.candidates.map(async (c): Promise<FanRow> => {
        const open = this.table.has(c.workstream);
        const pane = open ? (this.agentPane(c) ?? c.pane) : undefined;
        let changes: Changes | undefined;
        if (open) changes = await changesSince(c.dir, fan.base).catch(() => undefined);
        const check = !fan.check ? "none" : c.checking ? "running" : c.check ? (c.check.exit_code === 0 ? "passed" : "failed") : "waiting";
        return {
          k: c.k,
          workstream: c.workstream,
          branch: c.branch,
          open,
          ...(pane !== undefined ? { pane } : {}),
          status: pane !== undefined ? (agents?.status(pane)?.status ?? null) : null,
          prompted: c.prompted && open,
          turns: c.turns,
          ...(changes ?? {}),
          check,
          ...(c.check && !c.checking ? { exit_code: c.check.exit_code, check_output: c.check.output } : {}),
        };
      }),
    );
    return { fan, rows };
  }

  /** fan_compare: a review tab, each open candidate's changes against the fan's base side by side,
   * one pane each: the worktree as it is now (committed, uncommitted and untracked work, as ws fan
   * status counts it: one function, worktreeChanges) in Neovim's diff mode (git difftool) when nvim
   * is on the server's PATH, else git diff. A compare opened before is closed once this one stands. */
  async compare(name: string): Promise<{ ws: Workspace; tab: Tab; tool: string; candidates: CompareRow[] }> {
    const fan = this.get(name);
    const open = fan.candidates.filter((c) => this.table.has(c.workstream));
    if (!open.length) throw new WsError(`every candidate of fan "${fan.name}" is closed: nothing to compare`, "not_a_workstream", { param: "name" });
    const nvim = onPath("nvim");
    const rows: CompareRow[] = [];
    for (const c of open) {
      const ch = await worktreeChanges(c.dir, fan.base);
      rows.push({ k: c.k, workstream: c.workstream, tree: ch.tree, files: ch.files, added: ch.added, removed: ch.removed, paths: ch.paths });
    }
    this.get(fan.name); // kept while git ran
    // Object names only (the base commit, the worktree's tree): nothing git could read as an option
    // or a path. No external diff or textconv program the repo's configuration names runs here.
    const leaves: TreeNode[] = rows.map((r) => ({
      type: "pane",
      cwd: fan.repo,
      label: `${r.workstream}: ${r.files} files +${r.added} -${r.removed}`,
      keep: true,
      command: nvim ? ["git", "difftool", "--no-prompt", `--extcmd=${NVIM_DIFF}`, fan.base, r.tree, "--"] : ["git", "diff", "--no-ext-diff", "--no-textconv", fan.base, r.tree, "--"],
    }));
    const at = this.table.get(open[0]!.workstream);
    const workspace = (at && this.table.tabOf(at)?.ws.name) ?? this.session.workspaces[0]!.name;
    const before = fan.compareTab;
    const { ws, tab } = this.workstreams.openTab(workspace, tile(leaves), `${fan.name} compare`, true);
    fan.compareTab = tab.id;
    if (before !== undefined) this.closeTab(before);
    return { ws, tab, tool: nvim ? "nvim" : "git", candidates: rows };
  }

  /** Close tab `id` (a compare tab) when it is still open and not the last tab in ws. */
  private closeTab(id: number): void {
    const at = tabWhere(this.session, id);
    if (at && !(this.session.workspaces.length === 1 && at.ws.tabs.length === 1)) this.session.closeTab(at.ws, at.tab);
  }

  /** fan_keep: candidate k stays; every other goes as ws done --force does (its branch too with
   * deleteBranches). Then the fan is forgotten. */
  async keep(name: string, k: number, deleteBranches: boolean): Promise<{ kept: string; branch: string; closed: string[]; deleted_branches: string[] }> {
    const fan = this.get(name);
    const kept = fan.candidates.find((c) => c.k === k);
    if (!kept) throw new WsError(`fan "${name}" has candidates 1 to ${fan.candidates.length}, not ${k}`, "invalid_params", { param: "k" });
    if (!this.table.has(kept.workstream)) throw new WsError(`candidate ${k} (${kept.workstream}) is closed already`, "not_a_workstream", { param: "k" });
    const closed: string[] = [];
    const deleted: string[] = [];
    const failed: string[] = [];
    for (const c of fan.candidates) {
      if (c === kept) continue;
      if (this.table.has(c.workstream)) {
        try {
          await this.workstreams.done({ name: c.workstream, force: true });
          closed.push(c.workstream);
        } catch (e) {
          failed.push(`${c.workstream}: ${(e as Error).message}`);
          continue;
        }
      }
      if (deleteBranches) {
        const r = await git(fan.repo, ["branch", "-D", "--end-of-options", c.branch]);
        if (r.code === 0) deleted.push(c.branch);
      }
    }
    for (const c of fan.candidates) clearTimeout(c.timer);
    if (fan.compareTab !== undefined) this.closeTab(fan.compareTab);
    this.fans.delete(fan.name);
    if (failed.length) throw new WsError(`kept ${kept.workstream}; could not close ${failed.join("; ")}`, "git_failed");
    return { kept: kept.workstream, branch: kept.branch, closed, deleted_branches: deleted };
  }
}

/** Trees side by side, each an equal share of the width. */
export function tile(trees: TreeNode[]): TreeNode {
  if (trees.length === 1) return trees[0]!;
  return { type: "split", direction: "right", ratio: 1 / trees.length, first: trees[0]!, second: tile(trees.slice(1)) };
}
