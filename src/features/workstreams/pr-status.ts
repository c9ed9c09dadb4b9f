// A workstream's PR as the top bar and dashboard show it (`#101 ✓ approved, checks passing`), from
// gh when it is installed. Asked in the background and kept for a minute (a ship through the server
// drops it at once), so a dashboard never waits on GitHub for long.
import { onPath, run } from "./git";

const FRESH_MS = 60_000;

interface Entry {
  text?: string;
  at: number;
  pending?: Promise<void>;
}

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

export class PrStatus {
  /** By workstream name; bounded by the workstreams there are (forget drops one). */
  private cache = new Map<string, Entry>();

  /** What is known now; starts a refresh when it is old. `ref` is the PR number or the branch. */
  get(name: string, dir: string, ref: string): { text?: string; pending?: Promise<void> } {
    let e = this.cache.get(name);
    if (!e) this.cache.set(name, (e = { at: 0 }));
    if (!e.pending && Date.now() - e.at > FRESH_MS && onPath("gh")) {
      const entry = e;
      entry.pending = run(["gh", "pr", "view", ref, "--json", "number,state,reviewDecision,statusCheckRollup"], { cwd: dir, timeoutMs: 15_000 })
        .then((r) => {
          entry.text = r.code === 0 ? prText(JSON.parse(r.stdout)) : undefined;
        })
        .catch(() => {})
        .finally(() => {
          entry.at = Date.now();
          entry.pending = undefined;
        });
    }
    return { text: e.text, pending: e.pending };
  }

  forget(name: string): void {
    this.cache.delete(name);
  }
}
