// What the workstreams feature keeps in a save's body: its workstreams' records (the session's
// own; their files on disk are records.ts's), with the checks a restore holds them to.
import { type CheckpointPolicy, MAX_POLICY_VALUE } from "./workstream";
import { hasControl } from "../../safe-text";
import { type BodySection, isInt, isObj, noNul, savedNameProblem } from "../persistence/section";

export interface SavedWorkstream {
  name: string;
  repo: string;
  dir: string;
  branch: string;
  pr?: number;
  review?: boolean;
  /** Its template's [checkpoints] policy, when the template set one. */
  checkpoints?: CheckpointPolicy;
}

/** The saved workstreams that are usable; the others are noted and left out. Left out of the save
 * when there are none (and by saves from before workstreams). */
export const WORKSTREAMS_SECTION: BodySection<SavedWorkstream[]> = {
  check(list, note) {
    if (list === undefined) return undefined;
    if (!Array.isArray(list)) {
      note("workstreams is not a list; left out");
      return undefined;
    }
    const out: SavedWorkstream[] = [];
    for (const [i, w] of list.entries()) {
      const why = !isObj(w)
        ? "not an object"
        : (savedNameProblem(w.name, "name") ??
          (["repo", "dir", "branch"].find((k) => !noNul(w[k]) || hasControl(w[k])) !== undefined
            ? "repo, dir or branch is not plain text"
            : w.pr !== undefined && !isInt(w.pr, 1)
              ? "pr is not a number"
              : out.some((o) => o.name === w.name)
                ? "its name appears twice"
                : undefined));
      if (why) {
        note(`workstream ${i + 1} left out: ${why}`);
        continue;
      }
      const ok: SavedWorkstream = { name: w!.name, repo: w!.repo, dir: w!.dir, branch: w!.branch };
      if (w!.pr !== undefined) ok.pr = w!.pr;
      if (w!.review === true) ok.review = true;
      // A bad policy is dropped (pruning falls back to the defaults, which keep more), the workstream kept.
      if (w!.checkpoints !== undefined) {
        const c = w!.checkpoints;
        if (isObj(c) && isInt(c.keep, 1) && isInt(c.max_age_days, 1) && c.keep <= MAX_POLICY_VALUE && c.max_age_days <= MAX_POLICY_VALUE) ok.checkpoints = { keep: c.keep, max_age_days: c.max_age_days };
        else note(`workstream ${i + 1} ("${w!.name}"): its checkpoints policy is not keep and max_age_days from 1 to ${MAX_POLICY_VALUE}; using the defaults`);
      }
      out.push(ok);
    }
    return out.length ? out : undefined;
  },
};
