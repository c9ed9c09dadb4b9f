// Checkpoints of a workstream's worktree, kept by git but out of the person's repository: each one
// is a commit (no parent; HEAD named in a trailer) of the worktree's whole state — tracked,
// modified and untracked-not-ignored files — on refs/checkpoints/<n> of a shadow repository in
// ws's state dir ($XDG_STATE_HOME/ws/checkpoints/<hash of repo and workstream>.git), one per
// workstream. The shadow borrows the repository's objects (objects/info/alternates), so a file
// the repository already holds is not stored twice, and every object it writes stays in it: the
// person's refs, reflogs, object store, branch, HEAD, index and stash never change (git log --all,
// gitk and tig show no checkpoint). A snapshot is `git --git-dir=SHADOW --work-tree=WORKTREE add
// -A; write-tree; commit-tree` with a temporary index (GIT_INDEX_FILE: a copy of the worktree's,
// so what the person tracks is what is tracked, and unchanged files are not hashed again). Every git call is an argv array run
// asynchronously, with no repo hooks (git.ts). A restore writes and removes files following no
// link, and never overwrites a file no checkpoint holds (an ignored one): those paths are skipped
// and named in the reply. Checkpoints of an older ws (refs/ws/checkpoints/<workstream>/<n> in the
// repository) move into the shadow the first time the workstream's shadow is made.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, mkdtemp, open, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CheckpointPolicy } from "./workstream";
import { WsError } from "../../protocol/errors";
import { readFileAsync } from "../../safe-file";
import { safeText } from "../../safe-text";
import { wsDir } from "../../xdg-dirs";
import { git, gitPipe, gitSaid, type Ran } from "./git";
import { removeEmptyDirsInside, removeInside, WriteRefused } from "../../safe-write";

/** Where an older ws kept checkpoints, in the repository itself (moved into the shadow). */
export const REF_ROOT = "refs/ws/checkpoints";
/** A checkpoint's ref in its shadow. */
const SHADOW_REFS = "refs/checkpoints/";
/** A checkpoint's prompt or message kept in its commit, in characters. */
const MAX_TEXT = 16 * 1024;
/** A diff sent back, in characters; past it the reply says truncated. */
export const MAX_DIFF = 1024 * 1024;
/** The repository's info/exclude copied into a shadow (its ignore rules), in bytes. */
export const MAX_EXCLUDE = 1024 * 1024;

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

/** Whose checkpoints: a workstream `ws`, a checkout `dir` of its repository (its worktree, for
 * what reads or writes files), and `root`, the directory of shadows (checkpointRoot()). */
export interface Place {
  root: string;
  dir: string;
  ws: string;
}

/** The directory every shadow lives in. */
export const checkpointRoot = (env: Record<string, string | undefined> = process.env) => wsDir("state", env, "checkpoints");

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

/** Checkpoints are made by ws, whatever identity the user's git has (or lacks). */
const IDENTITY = { GIT_AUTHOR_NAME: "ws", GIT_AUTHOR_EMAIL: "ws@localhost", GIT_COMMITTER_NAME: "ws", GIT_COMMITTER_EMAIL: "ws@localhost" };

async function ok(r: Promise<Ran>, what: string, args: string[]): Promise<string> {
  const ran = await r;
  if (ran.code !== 0) throw new WsError(`${what}: git ${args.find((a) => !a.startsWith("-")) ?? args[0]} failed: ${gitSaid(ran)}`, "git_failed");
  return ran.stdout;
}
const gitIn = (dir: string, args: string[], what: string, env?: Record<string, string>, stdin?: string) =>
  ok(git(dir, args, { ...(env ? { env } : {}), ...(stdin !== undefined ? { stdin } : {}) }), what, args);

/** One workstream's shadow: its git directory, and the worktree it records. */
interface Shadow {
  gitDir: string;
  worktree: string;
  /** The repository's common git directory (whose objects it borrows). */
  common: string;
}

/** git in the shadow, with the worktree as its work tree (run from the worktree). */
const inShadow = (sh: Shadow, args: string[], what: string, env?: Record<string, string>, stdin?: string) =>
  gitIn(sh.worktree, [`--git-dir=${sh.gitDir}`, `--work-tree=${sh.worktree}`, ...args], what, env, stdin);

/** Each checkout's common git directory, asked of git once per checkout. */
const commonDirs = new Map<string, string>();
async function commonDirOf(dir: string): Promise<string> {
  let c = commonDirs.get(dir);
  if (!c) {
    c = (await gitIn(dir, ["rev-parse", "--path-format=absolute", "--git-common-dir"], "checkpoint")).trim();
    if (commonDirs.size > 1000) commonDirs.clear();
    commonDirs.set(dir, c);
  }
  return c;
}

/** The shadow's git directory: one per repository and workstream name (any name: it is hashed). */
export async function shadowPath(at: Place): Promise<{ gitDir: string; common: string }> {
  const common = await commonDirOf(at.dir);
  const key = createHash("sha256").update(`${common}\0${at.ws}`).digest("hex").slice(0, 32);
  return { gitDir: join(at.root, `${key}.git`), common };
}

const exists = (p: string) => lstat(p).then(() => true, () => false);

/** The workstream's shadow, made (and older checkpoints moved into it) when it has none. */
async function shadowOf(at: Place): Promise<Shadow> {
  const { gitDir, common } = await shadowPath(at);
  const sh: Shadow = { gitDir, worktree: at.dir, common };
  if (await exists(join(gitDir, "objects", "info", "alternates"))) return sh;
  await mkdir(at.root, { recursive: true, mode: 0o700 });
  // Made whole under a temporary name, then renamed: a half-made shadow is never used.
  const tmp = await mkdtemp(join(at.root, ".new-"));
  try {
    await gitIn(at.root, ["init", "--quiet", "--bare", "--template=", tmp], "checkpoint");
    await mkdir(join(tmp, "objects", "info"), { recursive: true });
    await writeFile(join(tmp, "objects", "info", "alternates"), `${join(common, "objects")}\n`);
    await writeFile(join(tmp, "description"), `ws checkpoints of workstream ${JSON.stringify(at.ws)} of ${common}\n`);
    const legacy = await moveLegacy({ ...sh, gitDir: tmp }, at.ws);
    await rename(tmp, gitDir);
    await legacy.forget();
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return sh;
}

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

/** Checkpoints an older ws kept as refs in the repository: copied into the (new) shadow — the
 * objects only they hold packed into it, each commit made again there without its parent, with
 * its text and dates — and `forget` then deletes the repository's refs (unless one moved). */
async function moveLegacy(sh: Shadow, ws: string): Promise<{ forget: () => Promise<void> }> {
  const prefix = `${REF_ROOT}/${refComponent(ws)}/`;
  const fmt = "%(refname)%00%(objectname)%00%(tree)%00%(parent)%00%(authordate:raw)%00%(committerdate:raw)%00%(contents)%01";
  const out = await gitIn(sh.worktree, ["for-each-ref", `--format=${fmt}`, prefix], "checkpoint migration");
  const old = out
    .split("\x01")
    .map((rec) => rec.replace(/^\n/, "").split("\0"))
    .filter((f) => f.length === 7 && f[2])
    .map(([ref, commit, tree, parents, authored, committed, contents]) => ({ ref: ref!, n: Number(ref!.slice(prefix.length)), commit: commit!, tree: tree!, parents: parents!.split(" ").filter(Boolean), authored: authored!, committed: committed!, contents: contents! }))
    .filter((c) => Number.isSafeInteger(c.n) && c.n >= 1);
  if (!old.length) return { forget: async () => {} };
  // Their trees, less what their parents (the branch's history, which stays) already hold.
  const revs = old.flatMap((c) => [c.commit, ...c.parents.map((p) => `^${p}`)]).join("\n");
  const packed = await gitPipe({ cwd: sh.worktree, args: ["pack-objects", "--revs", "--stdout", "--quiet"], stdin: `${revs}\n` }, { cwd: sh.worktree, args: [`--git-dir=${sh.gitDir}`, "index-pack", "--stdin"] });
  if (packed.code !== 0) throw new WsError(`checkpoint migration: git pack-objects failed: ${gitSaid(packed)}`, "git_failed");
  const creates: string[] = [];
  for (const c of old) {
    const dates = { GIT_AUTHOR_DATE: c.authored, GIT_COMMITTER_DATE: c.committed };
    const made = (await gitIn(sh.worktree, [`--git-dir=${sh.gitDir}`, "commit-tree", c.tree], "checkpoint migration", { ...IDENTITY, ...dates }, c.contents)).trim();
    creates.push(`create ${SHADOW_REFS}${c.n} ${made}\n`);
  }
  await gitIn(sh.worktree, [`--git-dir=${sh.gitDir}`, "update-ref", "--stdin"], "checkpoint migration", undefined, creates.join(""));
  return { forget: () => gitIn(sh.worktree, ["update-ref", "--stdin"], "checkpoint migration", undefined, old.map((c) => `delete ${c.ref} ${c.commit}\n`).join("")).then(() => {}) };
}

/** The repository's own ignore rules (info/exclude) for the shadow's git, which reads its own. */
async function syncExclude(sh: Shadow): Promise<void> {
  const rules = await readFileAsync(join(sh.common, "info", "exclude"), MAX_EXCLUDE, true).catch(() => Buffer.alloc(0));
  await mkdir(join(sh.gitDir, "info"), { recursive: true });
  await writeFile(join(sh.gitDir, "info", "exclude"), rules);
}

/** The tree of the worktree's state now, written into the shadow. Through a temporary index that
 * starts as a copy of the worktree's: what the person tracks stays tracked (an ignored file they
 * track is kept, one they don't is left out, as git add -A would in their repository), and
 * unchanged files are not hashed again. Should the shadow's git not read that copy (an extension
 * tied to the repository, such as a split index), it starts from an empty index instead. */
async function shadowTree(sh: Shadow): Promise<string> {
  await syncExclude(sh);
  const real = (await gitIn(sh.worktree, ["rev-parse", "--path-format=absolute", "--git-path", "index"], "checkpoint")).trim();
  return withTempIndex(async (index) => {
    const env = { GIT_INDEX_FILE: index };
    const add = () => inShadow(sh, ["add", "-A", "--", "."], "checkpoint", env);
    // Its mtime too: git re-checks entries written in the same second as the index ("racily
    // clean"), judged by the index file's own mtime; a copy made later would hide an edit of the
    // same size made in that second.
    await copyIndex(real, index).catch(() => rm(index, { force: true }));
    await add().catch(async () => {
      await rm(index, { force: true });
      await add();
    });
    return (await inShadow(sh, ["write-tree"], "checkpoint", env)).trim();
  });
}

async function revParse(dir: string, rev: string): Promise<string | undefined> {
  const r = await git(dir, ["rev-parse", "--verify", "--quiet", "--end-of-options", rev]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}
async function revParseIn(sh: Shadow, rev: string): Promise<string | undefined> {
  const r = await git(sh.worktree, [`--git-dir=${sh.gitDir}`, "rev-parse", "--verify", "--quiet", "--end-of-options", rev]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

async function changedCount(sh: Shadow, from: string, to: string): Promise<number> {
  const out = await inShadow(sh, ["diff-tree", "-r", "-z", "--name-only", "--no-renames", "--end-of-options", from, to], "checkpoint");
  return out.split("\0").filter(Boolean).length;
}

/** The commit message: the text's first line as subject, the rest after, and our trailers. */
function message(text: string, files: number, head: string | undefined, mark?: TurnMark): string {
  const t = text.slice(0, MAX_TEXT).trim() || "checkpoint";
  const turn = mark ? `Ws-Turn: ${mark.turn}\n${mark.after ? "Ws-Turn-End: yes\n" : ""}` : "";
  return `${t}\n\nWs-Files-Changed: ${files}\n${head ? `Ws-Head: ${head}\n` : ""}${turn}`;
}

async function listIn(sh: Shadow): Promise<Checkpoint[]> {
  const fmt = "%(refname)%00%(objectname)%00%(committerdate:unix)%00%(contents)%01";
  const out = await inShadow(sh, ["for-each-ref", `--format=${fmt}`, SHADOW_REFS], "checkpoint list");
  const list: Checkpoint[] = [];
  for (const rec of out.split("\x01")) {
    const [ref, commit, time, contents] = rec.replace(/^\n/, "").split("\0");
    if (!ref || !commit || contents === undefined) continue;
    const n = Number(ref.slice(SHADOW_REFS.length));
    if (!Number.isSafeInteger(n) || n < 1) continue;
    const files = /^Ws-Files-Changed: (\d+)$/m.exec(contents);
    const turn = /^Ws-Turn: (\d{1,9})$/m.exec(contents);
    const first = contents.split("\n", 1)[0] ?? "";
    const mark = turn ? { turn: Number(turn[1]), ...(/^Ws-Turn-End: yes$/m.test(contents) ? { after: true } : {}) } : {};
    list.push({ n, commit, time: Number(time), text: safeText(first).slice(0, 200), files: files ? Number(files[1]) : 0, ...mark });
  }
  return list.sort((a, b) => a.n - b.n);
}

/** The workstream's checkpoints, oldest first. */
export async function listCheckpoints(at: Place): Promise<Checkpoint[]> {
  return listIn(await shadowOf(at));
}

/** Record the worktree's state as the next checkpoint; undefined when it equals the last one. */
export async function saveCheckpoint(at: Place, text: string): Promise<Checkpoint | undefined> {
  return (await saveCheckpointTree(at, text)).checkpoint;
}

/** saveCheckpoint, also saying the tree of the worktree's state (recorded or not). */
export async function saveCheckpointTree(at: Place, text: string, mark?: TurnMark): Promise<{ checkpoint?: Checkpoint; tree: string }> {
  const sh = await shadowOf(at);
  const tree = await shadowTree(sh);
  const list = await listIn(sh);
  const last = list.at(-1);
  const head = await revParse(at.dir, "HEAD^{commit}");
  const before = last ? `${last.commit}^{tree}` : head ? `${head}^{tree}` : undefined;
  if (last && (await revParseIn(sh, before!)) === tree) return { tree };
  const files = before ? await changedCount(sh, before, tree) : 0;
  const commit = (await inShadow(sh, ["commit-tree", tree], "checkpoint", IDENTITY, message(text, files, head, mark))).trim();
  const n = (last?.n ?? 0) + 1;
  // The all-zero old value: create only, never move a ref another save made meanwhile.
  await inShadow(sh, ["update-ref", "-m", "ws checkpoint", `${SHADOW_REFS}${n}`, commit, "0".repeat(commit.length)], "checkpoint");
  const checkpoint: Checkpoint = { n, commit, time: Math.floor(Date.now() / 1000), text: safeText(text.trim().split("\n", 1)[0] ?? "").slice(0, 200), files, ...(mark ? { turn: mark.turn, ...(mark.after ? { after: true } : {}) } : {}) };
  return { checkpoint, tree };
}

async function checkpointCommit(sh: Shadow, ws: string, n: number): Promise<string> {
  const c = await revParseIn(sh, `${SHADOW_REFS}${n}^{commit}`);
  if (!c) throw new WsError(`workstream "${ws}" has no checkpoint ${n}: ws checkpoint list shows those it has`, "checkpoint_not_found", { param: "n" });
  return c;
}

/** The diff from checkpoint `from` to checkpoint `to`, or to the worktree now. */
export async function diffCheckpoints(at: Place, from: number, to?: number): Promise<{ diff: string; truncated: boolean }> {
  const sh = await shadowOf(at);
  const a = await checkpointCommit(sh, at.ws, from);
  const b = to !== undefined ? await checkpointCommit(sh, at.ws, to) : await shadowTree(sh);
  const out = await inShadow(sh, ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--end-of-options", a, b], "checkpoint diff");
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
export async function restoreFiles(at: Place, n: number, now: string): Promise<Restored> {
  const dir = at.dir;
  const sh = await shadowOf(at);
  const target = await checkpointCommit(sh, at.ws, n);
  const out = await inShadow(sh, ["diff-tree", "-r", "-z", "--no-renames", "--name-status", "--end-of-options", now, `${target}^{tree}`], "checkpoint restore");
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
      await inShadow(sh, ["read-tree", "--end-of-options", `${target}^{tree}`], "checkpoint restore", env);
      await inShadow(sh, ["checkout-index", "-f", "-z", "--stdin"], "checkpoint restore", env, kept.map((p) => `${p}\0`).join(""));
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

/** Drop checkpoints past the policy's count or age; the newest always stays. Returns those dropped.
 * The shadow's git then collects what nothing holds any more, when it has gathered enough (gc
 * --auto, in this process: never left running detached). */
export async function pruneCheckpoints(at: Place, policy: CheckpointPolicy, nowMs = Date.now()): Promise<number[]> {
  const sh = await shadowOf(at);
  const list = await listIn(sh);
  const oldest = nowMs / 1000 - policy.max_age_days * 86400;
  const drop = list.filter((c, i) => i < list.length - 1 && (i < list.length - policy.keep || c.time < oldest)).map((c) => c.n);
  if (!drop.length) return drop;
  await inShadow(sh, ["update-ref", "--stdin"], "checkpoint prune", undefined, drop.map((n) => `delete ${SHADOW_REFS}${n}\n`).join(""));
  await git(sh.worktree, ["-c", "gc.autoDetach=false", `--git-dir=${sh.gitDir}`, "gc", "--auto", "--quiet"]);
  return drop;
}

/** Remove every checkpoint of the workstream (ws done): its shadow, and any older refs still in
 * the repository. `dir` is any checkout of the repository. */
export async function removeCheckpoints(at: Place): Promise<void> {
  const { gitDir } = await shadowPath(at);
  const st = await lstat(gitDir).catch(() => undefined);
  if (st?.isDirectory()) await rm(gitDir, { recursive: true, force: true });
  const out = await gitIn(at.dir, ["for-each-ref", "--format=%(refname)", `${REF_ROOT}/${refComponent(at.ws)}/`], "checkpoint removal");
  const refs = out.split("\n").filter(Boolean);
  if (refs.length) await gitIn(at.dir, ["update-ref", "--stdin"], "checkpoint removal", undefined, refs.map((r) => `delete ${r}\n`).join(""));
}
