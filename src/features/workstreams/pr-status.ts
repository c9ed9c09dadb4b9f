// A workstream's PR as the top bar and dashboard show it (`#101 ✓ approved, checks passing`), from
// gh when it is installed. Asked in the background and kept for a minute (a ship through the server
// drops it at once), so a dashboard never waits on GitHub for long.
import { gh, onPath } from "./git";
import { KeptAnswers } from "./kept-answers";

const FRESH_MS = 60_000;

/** Check-run conclusions (and status-context states) that count as passed. */
const PASSED = new Set(["SUCCESS", "NEUTRAL", "SKIPPED"]);

/** An open PR's checks (gh's statusCheckRollup: check runs with status and conclusion, status
 * contexts with a state) in a few words: `checks passing`, `checks failing (1 of 3)`,
 * `checks pending (2 of 3)`; undefined when it has none. A failure outranks a pending one. */
export function checksText(rollup: unknown): string | undefined {
  if (!Array.isArray(rollup) || rollup.length === 0) return undefined;
  let failing = 0;
  let pending = 0;
  for (const c of rollup) {
    const o = (c && typeof c === "object" ? c : {}) as { status?: unknown; conclusion?: unknown; state?: unknown };
    const result = String(o.conclusion || o.state || "").toUpperCase();
    const done = o.status !== undefined && o.status !== null ? String(o.status).toUpperCase() === "COMPLETED" : result !== "" && result !== "PENDING" && result !== "EXPECTED";
    if (!done) pending++;
    else if (!PASSED.has(result)) failing++;
  }
  const n = rollup.length;
  return failing ? `checks failing (${failing} of ${n})` : pending ? `checks pending (${pending} of ${n})` : "checks passing";
}

/** The text for gh's answer: number, then review decision or state, then an open PR's checks. */
export function prText(v: { number?: unknown; state?: unknown; reviewDecision?: unknown; statusCheckRollup?: unknown }): string | undefined {
  if (typeof v.number !== "number") return undefined;
  const state = String(v.state ?? "").toUpperCase();
  const decision = String(v.reviewDecision ?? "").toUpperCase();
  const what =
    state === "MERGED" ? "merged"
    : state === "CLOSED" ? "closed"
    : decision === "APPROVED" ? "✓ approved"
    : decision === "CHANGES_REQUESTED" ? "✗ changes requested"
    : decision === "REVIEW_REQUIRED" ? "review required"
    : "open";
  const checks = state === "MERGED" || state === "CLOSED" ? undefined : checksText(v.statusCheckRollup);
  return `#${v.number} ${what}${checks ? `, ${checks}` : ""}`;
}

/** gh's view of the PR `ref` names, as text; undefined when gh finds none. */
async function ask(dir: string, ref: string): Promise<string | undefined> {
  const r = await gh(dir, ["pr", "view", "--json", "number,state,reviewDecision,statusCheckRollup", "--", ref], { timeoutMs: 15_000 });
  return r.code === 0 ? prText(JSON.parse(r.stdout)) : undefined;
}

export class PrStatus {
  private kept = new KeptAnswers<string>(FRESH_MS);

  /** What is known now; starts a refresh when it is old. `ref` is the PR number or the branch. */
  get(name: string, dir: string, ref: string): { text?: string; pending?: Promise<void> } {
    const { value, pending } = this.kept.get(name, () => (onPath("gh") ? ask(dir, ref) : undefined));
    return { text: value, pending };
  }

  forget(name: string): void {
    this.kept.forget(name);
  }
}
