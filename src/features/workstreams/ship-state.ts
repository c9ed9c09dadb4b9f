// A workstream's ship state as the dashboard shows it (`2 ahead`, `pushed`): commits on its branch
// that no remote branch has, and whether the branch is on its remote. Asked of git in the
// background and kept a few seconds, so a dashboard never waits on git for long.
import { git } from "./git";

const FRESH_MS = 5_000;

export interface ShipStateRow {
  /** Commits on the branch that no remote branch has. */
  ahead: number;
  /** The branch is on the remote (origin/BRANCH, or the first remote's). */
  pushed: boolean;
}

interface Entry {
  state?: ShipStateRow;
  at: number;
  pending?: Promise<void>;
}

async function ask(dir: string, branch: string): Promise<ShipStateRow | undefined> {
  const ahead = await git(dir, ["rev-list", "--count", "HEAD", "--not", "--remotes"], { timeoutMs: 10_000 });
  if (ahead.code !== 0) return undefined;
  const remotes = (await git(dir, ["remote"], { timeoutMs: 10_000 })).stdout.split("\n").filter(Boolean);
  const remote = remotes.includes("origin") ? "origin" : remotes[0];
  const pushed = remote !== undefined && (await git(dir, ["show-ref", "--verify", "--quiet", `refs/remotes/${remote}/${branch}`], { timeoutMs: 10_000 })).code === 0;
  return { ahead: Number(ahead.stdout.trim()) || 0, pushed };
}

export class ShipState {
  /** By workstream name; bounded by the workstreams there are (forget drops one). */
  private cache = new Map<string, Entry>();

  /** What is known now; starts a refresh when it is old. */
  get(name: string, dir: string, branch: string): { state?: ShipStateRow; pending?: Promise<void> } {
    let e = this.cache.get(name);
    if (!e) this.cache.set(name, (e = { at: 0 }));
    if (!e.pending && Date.now() - e.at > FRESH_MS && branch) {
      const entry = e;
      entry.pending = ask(dir, branch)
        .then((s) => {
          entry.state = s;
        })
        .catch(() => {})
        .finally(() => {
          entry.at = Date.now();
          entry.pending = undefined;
        });
    }
    return { state: e.state, pending: e.pending };
  }

  forget(name: string): void {
    this.cache.delete(name);
  }
}
