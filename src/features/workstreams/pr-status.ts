// A workstream's PR as the top bar and dashboard show it (`#101 ✓ approved`), from gh when it is
// installed. Asked in the background and kept for a minute, so a dashboard never waits on GitHub
// for long.
import { onPath, run } from "./git";

const FRESH_MS = 60_000;

interface Entry {
  text?: string;
  at: number;
  pending?: Promise<void>;
}

/** The text for gh's answer: number, then review decision or state. */
export function prText(v: { number?: unknown; state?: unknown; reviewDecision?: unknown }): string | undefined {
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
  return `#${v.number} ${what}`;
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
      entry.pending = run(["gh", "pr", "view", ref, "--json", "number,state,reviewDecision"], { cwd: dir, timeoutMs: 15_000 })
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
