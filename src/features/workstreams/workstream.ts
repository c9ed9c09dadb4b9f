// A workstream: a task in its own git worktree and tab (ws new, ws review). Plain data the
// workstreams feature keeps (table.ts); the tab it names is the model's.
export interface Workstream {
  readonly name: string;
  /** The main clone. */
  readonly repo: string;
  /** Its worktree. */
  readonly dir: string;
  readonly branch: string;
  readonly pr?: number;
  /** Its tab's id, while the tab is open (tab ids are never reused, so a closed one finds nothing). */
  tab?: number;
  /** A review (ws review) rather than a task (ws new). */
  readonly review?: boolean;
  /** Its template's [checkpoints] policy, kept here so a restart still prunes by it (absent: the defaults). */
  readonly checkpoints?: CheckpointPolicy;
}

/** How many checkpoints a workstream keeps, and for how long (a template's [checkpoints]). */
export interface CheckpointPolicy {
  keep: number;
  max_age_days: number;
}
/** The largest keep and max_age_days a template (or a save) may give. */
export const MAX_POLICY_VALUE = 100_000;
