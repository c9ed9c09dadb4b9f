// Checkpoints of a workstream's worktree, kept by git itself: each one is a commit object (parent:
// HEAD) of the worktree's whole state — tracked, modified and untracked-not-ignored files — on a
// private ref refs/ws/checkpoints/<workstream>/<n>. It is made through a temporary index (a copy of
// the real one, so unchanged files are not hashed again), so the branch, HEAD, the index and the
// stash never change. Every git call is an argv array run asynchronously, with no repo hooks
// (git.ts). A restore writes and removes files following no link, and never overwrites a file no
// checkpoint holds (an ignored one): those paths are skipped and named in the reply.
import { constants } from "node:fs";
import { lstat, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CheckpointPolicy } from "../../model/workstream";
import { WsError } from "../../protocol/errors";
import { safeText } from "../../safe-text";
import { git, gitSaid, type Ran } from "./git";
import { removeEmptyDirsInside, removeInside, WriteRefused } from "../../safe-write";

export const REF_ROOT = "refs/ws/checkpoints";
/** A checkpoint's prompt or message kept in its commit, in characters. */
const MAX_TEXT = 16 * 1024;
/** A diff sent back, in characters; past it the reply says truncated. */
export const MAX_DIFF = 1024 * 1024;

export type { CheckpointPolicy };
export const DEFAULT_POLICY: CheckpointPolicy = { keep: 50, max_age_days: 14 };

export interface Checkpoint {
  n: number;
  commit: string;
  /** Unix seconds. */
  time: number;
  /** The prompt's (or message's) first line, as safe text. */
  text: string;
  /** Files that differ from the checkpoint before it (from HEAD for the first). */
  files: number;
  /** The agent's turn it was taken at (its start, or with `after` its end), when a turn's. */
  turn?: number;
  after?: boolean;
}

/** What a turn's checkpoint records beside its text. */
export interface TurnMark {
  turn: number;
  after: boolean;
}

/** The workstream's name as one ref component: itself when git allows it, else with each byte git
 * refuses (and "%") written %XX, so every name has its own refs (a name with a space, a ":", …). */
export function refComponent(ws: string): string {
  const plain = /^[A-Za-z0-9_+,=@-][A-Za-z0-9._+,=@-]*$/.test(ws) && !ws.endsWith(".") && !ws.endsWith(".lock");
  if (plain) return ws;
  const bytes = new TextEncoder().encode(ws);
  let out = "";
  bytes.forEach((b, i) => {
    const c = String.fromCharCode(b);
    const keep = /[A-Za-z0-9_+,=@-]/.test(c) || (c === "." && i > 0 && i < bytes.length - 1);
    out += keep ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  });
  return out.endsWith(".lock") ? `${out.slice(0, -5)}%2Elock` : out;
}

const prefix = (ws: string) => `${REF_ROOT}/${refComponent(ws)}/`;
const refOf = (ws: string, n: number) => `${prefix(ws)}${n}`;

/** Checkpoints are made by ws, whatever identity the user's git has (or lacks). */
const IDENTITY = { GIT_AUTHOR_NAME: "ws", GIT_AUTHOR_EMAIL: "ws@localhost", GIT_COMMITTER_NAME: "ws", GIT_COMMITTER_EMAIL: "ws@localhost" };

async function ok(r: Promise<Ran>, what: string, args: string[]): Promise<string> {
  const ran = await r;
  if (ran.code !== 0) throw new WsError(`${what}: git ${args[0]} failed: ${gitSaid(ran)}`, "git_failed");
  return ran.stdout;
}
const gitIn = (dir: string, args: string[], what: string, env?: Record<string, string>, stdin?: string) =>
  ok(git(dir, args, { ...(env ? { env } : {}), ...(stdin !== undefined ? { stdin } : {}) }), what, args);

/** Copy the worktree's index (git's, in its git directory, where the agent's git writes too) for
 * a temporary one: only a regular file, opened without following a link or waiting on a FIFO,
 * its mtime kept. Nothing is copied when it is anything else (git then hashes every file). */
async function copyIndex(from: string, to: string): Promise<void> {
  const src = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY).catch(() => undefined);
  if (!src) return;
  try {
    const st = await src.stat();
    if (!st.isFile()) return;
    const dst = await open(to, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      const buf = Buffer.allocUnsafe(1 << 20);
      let at = 0;
      // Its size when looked at: an index that grows meanwhile is git's to sort out.
      while (at < st.size) {
        const { bytesRead } = await src.read(buf, 0, Math.min(buf.length, st.size - at), at);
        if (bytesRead === 0) break;
        let off = 0;
        while (off < bytesRead) off += (await dst.write(buf, off, bytesRead - off)).bytesWritten;
        at += bytesRead;
      }
      await dst.utimes(st.atime, st.mtime);
    } finally {
      await dst.close();
    }
  } finally {
    await src.close();
  }
}

/** Run `fn` with a temporary index file (removed after). */
async function withTempIndex<T>(fn: (index: string) => Promise<T>): Promise<T> {
  const tmp = await mkdtemp(join(tmpdir(), "ws-checkpoint-"));
  try {
    return await fn(join(tmp, "index"));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The tree of the worktree's state now, written to the object store; the real index is only read. */
export async function snapshotTree(dir: string): Promise<string> {
  return withTempIndex(async (index) => {
    const real = (await gitIn(dir, ["rev-parse", "--path-format=absolute", "--git-path", "index"], "checkpoint")).trim();
    // Starting from the real index keeps its stat data: only changed files are hashed again.
    // Its mtime too: git re-checks entries written in the same second as the index ("racily
    // clean"), judged by the index file's own mtime; a copy made later would hide an edit of the
    // same size made in that second.
    await copyIndex(real, index).catch(() => rm(index, { force: true }));
    const env = { GIT_INDEX_FILE: index };
    await gitIn(dir, ["add", "-A", "--", "."], "checkpoint", env);
    return (await gitIn(dir, ["write-tree"], "checkpoint", env)).trim();
  });
}

async function revParse(dir: string, rev: string): Promise<string | undefined> {
  const r = await git(dir, ["rev-parse", "--verify", "--quiet", rev]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

async function changedCount(dir: string, from: string, to: string): Promise<number> {
  const out = await gitIn(dir, ["diff-tree", "-r", "-z", "--name-only", "--no-renames", from, to], "checkpoint");
  return out.split("\0").filter(Boolean).length;
}

/** The commit message: the text's first line as subject, the rest after, and our trailer. */
function message(text: string, files: number, mark?: TurnMark): string {
  const t = text.slice(0, MAX_TEXT).trim() || "checkpoint";
  const turn = mark ? `Ws-Turn: ${mark.turn}\n${mark.after ? "Ws-Turn-End: yes\n" : ""}` : "";
  return `${t}\n\nWs-Files-Changed: ${files}\n${turn}`;
}

/** The workstream's checkpoints, oldest first. */
export async function listCheckpoints(dir: string, ws: string): Promise<Checkpoint[]> {
  const fmt = "%(refname)%00%(objectname)%00%(committerdate:unix)%00%(contents)%01";
  const out = await gitIn(dir, ["for-each-ref", `--format=${fmt}`, prefix(ws)], "checkpoint list");
  const list: Checkpoint[] = [];
  for (const rec of out.split("\x01")) {
    const [ref, commit, time, contents] = rec.replace(/^\n/, "").split("\0");
    if (!ref || !commit || contents === undefined) continue;
    const n = Number(ref.slice(prefix(ws).length));
    if (!Number.isSafeInteger(n) || n < 1) continue;
    const files = /^Ws-Files-Changed: (\d+)$/m.exec(contents);
    const turn = /^Ws-Turn: (\d{1,9})$/m.exec(contents);
    const first = contents.split("\n", 1)[0] ?? "";
    const mark = turn ? { turn: Number(turn[1]), ...(/^Ws-Turn-End: yes$/m.test(contents) ? { after: true } : {}) } : {};
    list.push({ n, commit, time: Number(time), text: safeText(first).slice(0, 200), files: files ? Number(files[1]) : 0, ...mark });
  }
  return list.sort((a, b) => a.n - b.n);
}

/** Record the worktree's state as the next checkpoint; undefined when it equals the last one. */
export async function saveCheckpoint(dir: string, ws: string, text: string): Promise<Checkpoint | undefined> {
  return (await saveCheckpointTree(dir, ws, text)).checkpoint;
}

/** saveCheckpoint, also saying the tree of the worktree's state (recorded or not). */
export async function saveCheckpointTree(dir: string, ws: string, text: string, mark?: TurnMark): Promise<{ checkpoint?: Checkpoint; tree: string }> {
  const tree = await snapshotTree(dir);
  const list = await listCheckpoints(dir, ws);
  const last = list.at(-1);
  const head = await revParse(dir, "HEAD^{commit}");
  const before = last ? `${last.commit}^{tree}` : (head ? `${head}^{tree}` : undefined);
  if (last && (await revParse(dir, before!)) === tree) return { tree };
  const files = before ? await changedCount(dir, before, tree) : 0;
  const args = ["commit-tree", tree, ...(head ? ["-p", head] : [])];
  const commit = (await gitIn(dir, args, "checkpoint", IDENTITY, message(text, files, mark))).trim();
  const n = (last?.n ?? 0) + 1;
  // The all-zero old value: create only, never move a ref another save made meanwhile.
  await gitIn(dir, ["update-ref", "-m", "ws checkpoint", refOf(ws, n), commit, "0".repeat(commit.length)], "checkpoint");
  const checkpoint: Checkpoint = { n, commit, time: Math.floor(Date.now() / 1000), text: safeText(text.trim().split("\n", 1)[0] ?? "").slice(0, 200), files, ...(mark ? { turn: mark.turn, ...(mark.after ? { after: true } : {}) } : {}) };
  return { checkpoint, tree };
}

async function checkpointCommit(dir: string, ws: string, n: number): Promise<string> {
  const c = await revParse(dir, `${refOf(ws, n)}^{commit}`);
  if (!c) throw new WsError(`workstream "${ws}" has no checkpoint ${n}: ws checkpoint list shows those it has`, "checkpoint_not_found", { param: "n" });
  return c;
}

/** The diff from checkpoint `from` to checkpoint `to`, or to the worktree now. */
export async function diffCheckpoints(dir: string, ws: string, from: number, to?: number): Promise<{ diff: string; truncated: boolean }> {
  const a = await checkpointCommit(dir, ws, from);
  const b = to !== undefined ? await checkpointCommit(dir, ws, to) : await snapshotTree(dir);
  const out = await gitIn(dir, ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--end-of-options", a, b], "checkpoint diff");
  return out.length > MAX_DIFF ? { diff: out.slice(0, MAX_DIFF), truncated: true } : { diff: out, truncated: false };
}

/** Skipped paths a restore's reply names; past this only their count. */
export const MAX_SKIPPED_LISTED = 100;

export interface Restored {
  written: number;
  removed: number;
  /** Paths of the checkpoint left as they are on disk, at most MAX_SKIPPED_LISTED. */
  skipped: string[];
  skipped_count: number;
}

/** Put the worktree's files back to checkpoint n (the index, HEAD and ignored files stay as they
 * are). `now` is the tree of the worktree as it is, which the caller checkpointed first: what
 * is in it can be had back. A path whose writing would destroy something not in it (an ignored
 * file, a link or a directory of them in the way) is skipped and named. Returns what changed. */
export async function restoreFiles(dir: string, ws: string, n: number, now: string): Promise<Restored> {
  const target = await checkpointCommit(dir, ws, n);
  const out = await gitIn(dir, ["diff-tree", "-r", "-z", "--no-renames", "--name-status", now, `${target}^{tree}`], "checkpoint restore");
  const parts = out.split("\0");
  const write: { path: string; saved: boolean }[] = [];
  const remove: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [status, path] = [parts[i]!, parts[i + 1]!];
    if (!path) continue;
    if (status === "D") remove.push(path);
    else write.push({ path, saved: status !== "A" });
  }
  // Removals first: a directory the checkpoint has as a file must be gone before it is written.
  try {
    for (const p of remove) {
      await removeInside(dir, p);
      await removeEmptyDirsInside(dir, dirname(p));
    }
  } catch (e) {
    if (e instanceof WriteRefused) throw new WsError(`checkpoint restore stopped: ${e.message}`, "path_escapes");
    throw e;
  }
  const kept: string[] = [];
  const skipped: string[] = [];
  for (const w of write) ((await unsavedInTheWay(dir, w.path, w.saved)) ? skipped : kept).push(w.path);
  if (kept.length)
    await withTempIndex(async (index) => {
      const env = { GIT_INDEX_FILE: index };
      await gitIn(dir, ["read-tree", `${target}^{tree}`], "checkpoint restore", env);
      await gitIn(dir, ["checkout-index", "-f", "-z", "--stdin"], "checkpoint restore", env, kept.map((p) => `${p}\0`).join(""));
    });
  return { written: kept.length, removed: remove.length, skipped: skipped.slice(0, MAX_SKIPPED_LISTED), skipped_count: skipped.length };
}

/** Whether writing `path` would replace something no checkpoint holds: a parent that is not a
 * plain directory (an ignored file, or a link, where the checkpoint has a directory), a directory
 * still there (what is left in it is ignored: the rest was removed), or, for a path not in the
 * present tree (`saved` false), anything at all (an ignored file: its only copy). */
async function unsavedInTheWay(dir: string, path: string, saved: boolean): Promise<boolean> {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const st = await lstat(join(dir, ...parts.slice(0, i))).catch(() => undefined);
    if (!st) return false;
    if (!st.isDirectory()) return true;
  }
  const st = await lstat(join(dir, path)).catch(() => undefined);
  if (!st) return false;
  return st.isDirectory() || !saved;
}

/** Delete refs in one update-ref transaction. */
async function deleteRefs(dir: string, refs: string[]): Promise<void> {
  if (!refs.length) return;
  await gitIn(dir, ["update-ref", "--stdin"], "checkpoint prune", undefined, refs.map((r) => `delete ${r}\n`).join(""));
}

/** Drop checkpoints past the policy's count or age; the newest always stays. Returns those dropped. */
export async function pruneCheckpoints(dir: string, ws: string, policy: CheckpointPolicy, nowMs = Date.now()): Promise<number[]> {
  const list = await listCheckpoints(dir, ws);
  const oldest = nowMs / 1000 - policy.max_age_days * 86400;
  const drop = list.filter((c, i) => i < list.length - 1 && (i < list.length - policy.keep || c.time < oldest)).map((c) => c.n);
  await deleteRefs(dir, drop.map((n) => refOf(ws, n)));
  return drop;
}

/** Remove every checkpoint of the workstream (ws done). `dir` is any checkout of the repo. */
export async function removeCheckpoints(dir: string, ws: string): Promise<void> {
  const out = await gitIn(dir, ["for-each-ref", "--format=%(refname)", prefix(ws)], "checkpoint removal");
  await deleteRefs(dir, out.split("\n").filter(Boolean));
}
