// Ship from the interface (prefix : ship, a key bound to it) asks first: what would be committed
// is worked out without touching the index (the worktree's tree written with a temporary index, as
// a checkpoint's, compared with HEAD), shown as a y/n question with the branch, remote and PR
// plan, and shipped only on y. The `ship` message and ws ship don't ask (docs/workstreams.md, Ship).
import type { Session } from "../../model/session";
import type { Workstream } from "./workstream";
import { controlChars } from "../../safe-text";
import { snapshotTree } from "./checkpoints";
import { gitOk } from "./git";
import type { WorkstreamService } from "./service";
import { planShip, ship, type ShipOptions, type ShipPlan, type Shipped } from "./ship";

/** What `git add -A` would stage against HEAD. */
export interface ChangeSummary {
  files: number;
  added: number;
  removed: number;
  /** Files new to the branch, and files it would delete. */
  created: number;
  deleted: number;
  /** The tree those changes make: the same tree means nothing changed since. */
  tree: string;
}

/** The worktree's changes against HEAD, as `git add -A` would stage them; the index is only read. */
async function summarizeChanges(dir: string): Promise<ChangeSummary> {
  const tree = await snapshotTree(dir);
  const diff = (how: string) => gitOk(dir, ["diff-tree", "-r", "-z", "--no-renames", how, "HEAD", tree], "ws ship");
  const numstat = (await diff("--numstat")).split("\0").filter(Boolean);
  const status = (await diff("--name-status")).split("\0"); // status, path, status, path…
  const s: ChangeSummary = { files: numstat.length, added: 0, removed: 0, created: 0, deleted: 0, tree };
  for (const line of numstat) {
    const [a, d] = line.split("\t"); // "-" for a binary file
    s.added += Number(a) || 0;
    s.removed += Number(d) || 0;
  }
  for (let i = 0; i + 1 < status.length; i += 2) {
    if (status[i] === "A") s.created++;
    else if (status[i] === "D") s.deleted++;
  }
  return s;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "3 files changed, +12 −4, 1 new, 1 deleted" */
function changeLine(c: ChangeSummary): string {
  return [`${plural(c.files, "file")} changed`, `+${c.added} −${c.removed}`, ...(c.created ? [`${c.created} new`] : []), ...(c.deleted ? [`${c.deleted} deleted`] : [])].join(", ");
}

type Asked = Omit<ShipOptions, "onStaged" | "workstream">;

/** The question: what is committed first (cut short, the status line is one line), then the plan. */
function shipQuestion(w: string, plan: ShipPlan, changes: ChangeSummary | undefined, o: Asked): string {
  const msg = (o.message ?? "").trim().split("\n")[0] ?? "";
  const short = [...msg].length > 40 ? `${[...msg].slice(0, 39).join("")}…` : msg;
  const steps = changes ? [changeLine(changes), `commit "${short}" on ${plan.branch}`] : [`nothing to commit on ${plan.branch}`];
  if (o.push || o.pr) steps.push(`push${!changes && plan.unpushed ? ` ${plural(plan.unpushed, "commit")}` : ""} to ${plan.remote}`);
  if (o.pr) steps.push(`open a ${o.draft ? "draft " : ""}PR`);
  return `Ship ${w}? (y/n) ${steps.join("; ")}`.replace(controlChars(), "");
}

/** What the status line says once shipped. */
function shippedLine(w: string, r: Shipped): string {
  const done = [...(r.commit ? [`committed ${r.commit.slice(0, 12)} on ${r.branch}`] : []), ...(r.pushed ? [`pushed to ${r.remote}`] : []), ...(r.pr ? [`PR ${r.pr}`] : [])];
  if (!r.pushed && r.unpushed) done.push(`${plural(r.unpushed, "commit")} not pushed`);
  return `shipped ${w}: ${done.join(", ")}`.replace(controlChars(), "");
}

/** Ship a workstream the server knows, then tell the dashboard and subscribers (the `ship` message,
 * and the interface once answered y). */
export async function shipWorkstream(svc: WorkstreamService, session: Session, w: Workstream, o: Asked): Promise<Shipped> {
  const r = await ship(w.dir, { ...o, workstream: w.name });
  // The dashboard asks git and gh afresh: the row shows the new commit, the push and the PR now.
  svc.prs.forget(w.name);
  svc.shipStates.forget(w.name);
  session.bus.emit({ type: "shipped", workstream: w.name, branch: r.branch, ...(r.commit ? { commit: r.commit } : {}), pushed: r.pushed, ...(r.pr ? { pr: r.pr } : {}) });
  return r;
}

export interface ShipRequest extends Asked {
  name?: string;
  pane?: number;
}

/** A question for the status line; `go` ships and says how it went, or, when the work changed
 * since the question was put, asks again about what is there now. */
export interface ShipQuestion {
  question: string;
  go(): Promise<ShipQuestion | string>;
}

/** The interface's ship: refusals are thrown before anything is asked. */
export function shipAsker(svc: WorkstreamService, session: Session): (p: ShipRequest) => Promise<ShipQuestion> {
  const o = (p: ShipRequest): Asked => ({ ...(p.message !== undefined ? { message: p.message } : {}), push: p.push, pr: p.pr, draft: p.draft });
  const look = async (w: Workstream, p: ShipRequest) => {
    const plan = await planShip(w.dir, o(p));
    return { plan, changes: plan.changed ? await summarizeChanges(plan.dir) : undefined };
  };
  const ask = (w: Workstream, p: ShipRequest, seen: Awaited<ReturnType<typeof look>>, again = false): ShipQuestion => ({
    question: `${again ? "Changed meanwhile. " : ""}${shipQuestion(w.name, seen.plan, seen.changes, o(p))}`,
    async go() {
      const now = await look(w, p);
      if (now.changes?.tree !== seen.changes?.tree || now.plan.unpushed !== seen.plan.unpushed || now.plan.branch !== seen.plan.branch) return ask(w, p, now, true);
      return shippedLine(w.name, await shipWorkstream(svc, session, w, o(p)));
    },
  });
  return async (p) => {
    const w = svc.resolve(p);
    return ask(w, p, await look(w, p));
  };
}
