// A workstream's ship state as the dashboard shows it (`2 ahead`, `pushed`): commits on its branch
// that no remote branch has, and whether the branch is on its remote. Asked of git in the
// background and kept a few seconds, so a dashboard never waits on git for long.
import { git } from "./git";
import { KeptAnswers } from "./kept-answers";

const FRESH_MS = 5_000;

export interface ShipStateRow {
  /** Commits on the branch that no remote branch has. */
  ahead: number;
  /** The branch is on the remote (origin/BRANCH, or the first remote's). */
  pushed: boolean;
}

async function ask(dir: string, branch: string): Promise<ShipStateRow | undefined> {
  const ahead = await git(dir, ["rev-list", "--count", "HEAD", "--not", "--remotes"], { timeoutMs: 10_000 });
  if (ahead.code !== 0) return undefined;
  const remotes = (await git(dir, ["remote"], { timeoutMs: 10_000 })).stdout.split("\n").filter(Boolean);
  const remote = remotes.includes("origin") ? "origin" : remotes[0];
  const pushed = remote !== undefined && (await git(dir, ["show-ref", "--verify", "--quiet", "--end-of-options", `refs/remotes/${remote}/${branch}`], { timeoutMs: 10_000 })).code === 0;
  return { ahead: Number(ahead.stdout.trim()) || 0, pushed };
}

export class ShipState {
  private kept = new KeptAnswers<ShipStateRow>(FRESH_MS);

  /** What is known now; starts a refresh when it is old. */
  get(name: string, dir: string, branch: string): { state?: ShipStateRow; pending?: Promise<void> } {
    const { value, pending } = this.kept.get(name, () => (branch ? ask(dir, branch) : undefined));
    return { state: value, pending };
  }

  forget(name: string): void {
    this.kept.forget(name);
  }
}
