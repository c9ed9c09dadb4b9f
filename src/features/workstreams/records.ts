// Workstreams are files on disk: one record per workstream in ws's state dir
// ($XDG_STATE_HOME/ws/workstreams/NAME.json), written atomically when the workstream is recorded
// and removed when ws done finishes it. A server reads them at start, so a crash, a kill-server or
// a new server never forgets a workstream: one whose tab is gone is "stranded" (listed by
// ws workstream list, finished by ws done) and holds its name until then.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Session } from "../../model/session";
import { MAX_POLICY_VALUE, type Workstream } from "./workstream";
import { pathNameProblem } from "../../protocol/names";
import { readTextFileIfAny } from "../../safe-file";
import { writeAtomicSync } from "../../write-atomic";
import { wsDir } from "../../xdg-dirs";
import { log } from "../../log";
import { workstreamsOf } from "./table";

type Env = Record<string, string | undefined>;

/** Records read at start (more are left on disk, unread), and the largest record read. */
export const MAX_RECORDS = 4096;
export const MAX_RECORD_BYTES = 16 * 1024;

export type WorkstreamRecord = Omit<Workstream, "tab">;

export function recordsDir(env: Env = process.env): string {
  return wsDir("state", env, "workstreams");
}

const str = (v: unknown): v is string => typeof v === "string";
const policyValue = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= MAX_POLICY_VALUE;

/** A record's fields, checked (a file someone else wrote, or an older ws, may hold anything). */
export function parseRecord(text: string): WorkstreamRecord | undefined {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!o || typeof o !== "object") return undefined;
  const { name, repo, dir, branch, pr, review, checkpoints } = o as Record<string, unknown>;
  if (!str(name) || pathNameProblem(name) || !str(repo) || !isAbsolute(repo) || !str(dir) || !isAbsolute(dir) || !str(branch)) return undefined;
  const r: WorkstreamRecord = { name, repo, dir, branch };
  if (Number.isSafeInteger(pr) && (pr as number) > 0) Object.assign(r, { pr });
  if (review === true) Object.assign(r, { review: true });
  const c = checkpoints as { keep?: unknown; max_age_days?: unknown } | undefined;
  if (c && typeof c === "object" && policyValue(c.keep) && policyValue(c.max_age_days)) Object.assign(r, { checkpoints: { keep: c.keep, max_age_days: c.max_age_days } });
  return r;
}

export class WorkstreamRecords {
  constructor(private env: Env = process.env) {}

  get dir(): string {
    return recordsDir(this.env);
  }

  private file(name: string): string {
    return join(this.dir, `${name}.json`);
  }

  /** Write w's record (replacing the one before). A failure is logged: the session still has it. */
  write(w: Workstream): void {
    if (pathNameProblem(w.name)) return;
    const { name, repo, dir, branch, pr, review, checkpoints } = w;
    const rec = { v: 1, name, repo, dir, branch, ...(pr !== undefined ? { pr } : {}), ...(review ? { review } : {}), ...(checkpoints ? { checkpoints: { ...checkpoints } } : {}) };
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeAtomicSync(this.file(name), `${JSON.stringify(rec)}\n`);
    } catch (e) {
      log.error(`workstream ${name}: writing its record: ${(e as Error).message}`);
    }
  }

  remove(name: string): void {
    if (pathNameProblem(name)) return;
    try {
      rmSync(this.file(name), { force: true });
    } catch (e) {
      log.error(`workstream ${name}: removing its record: ${(e as Error).message}`);
    }
  }

  /** Every usable record (at most MAX_RECORDS), by name. */
  readAll(): WorkstreamRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((f) => f.endsWith(".json")).sort();
    } catch {
      return [];
    }
    const out: WorkstreamRecord[] = [];
    for (const f of names.slice(0, MAX_RECORDS)) {
      let text: string | undefined;
      try {
        text = readTextFileIfAny(join(this.dir, f), MAX_RECORD_BYTES, true);
      } catch {
        continue; // a link, a FIFO, too big: not a record of ours
      }
      const r = text !== undefined ? parseRecord(text) : undefined;
      if (r && `${r.name}.json` === f) out.push(r);
    }
    return out;
  }

  /** At start: every record the session lacks comes back as a stranded workstream (no tab); every
   * workstream the session has (a restored save) gets its record; then records follow the session. */
  attach(session: Session): void {
    for (const r of this.readAll()) if (!workstreamsOf(session).has(r.name)) workstreamsOf(session).add(r);
    for (const w of workstreamsOf(session).values()) this.write(w);
    session.bus.on((e) => {
      if (e.type === "workstream_created") {
        const w = workstreamsOf(session).get(e.workstream);
        if (w) this.write(w);
      } else if (e.type === "workstream_closed") this.remove(e.workstream);
    });
  }
}
