// wait-for across shim processes, as tmux's server keeps its channels (cmd-wait-for.c):
// - wait / -S: a waiter blocks until a signal; a signal with nobody waiting is remembered and wakes
//   the next waiter;
// - -L / -U: a lock. -L takes it, or queues until it is handed over (first come, first served);
//   -U hands it to the next in the queue, else frees it; -U on a free channel fails. As in tmux
//   the lock belongs to no client: one call takes it, a later one frees it. tmux's locks end with
//   its server, so ws's are kept per ws server (its pid), and a new server starts with none.
// A process that blocks parks on a FIFO in the channel's directory, named so the directory sorts
// in arrival order. It holds the FIFO open read-write, so a byte written before it reads is kept,
// and a waker sees a FIFO with no reader (left by a process that died) and removes it.
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { createHash } from "node:crypto";
import { processAlive } from "../platform/process-alive";
import { ShimError } from "./world";

/** A channel's name as a file name: hex, or its hash when that would be too long for one. */
const fileName = (channel: string) => {
  const hex = Buffer.from(channel).toString("hex");
  return hex.length <= 200 ? hex : createHash("sha256").update(channel).digest("hex");
};

const channelDir = (stateDir: string, channel: string) => `${stateDir}/wait/${fileName(channel)}`;

/** Consume a remembered signal, if there is one. */
function takeWoken(dir: string): boolean {
  try {
    unlinkSync(`${dir}/.woken`);
    return true;
  } catch {
    return false;
  }
}

interface Parked {
  fd: number;
  path: string;
}

/** Queue this process in `dir` (not yet blocked). */
function park(stateDir: string, dir: string): Parked {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${stateDir}/wait/.${process.pid}.fifo`;
  mkdirSync(`${stateDir}/wait`, { recursive: true, mode: 0o700 });
  rmSync(tmp, { force: true });
  const mk = Bun.spawnSync(["mkfifo", "-m", "600", tmp]);
  if (mk.exitCode !== 0) throw new ShimError(`wait-for: can't make a fifo: ${mk.stderr.toString().trim()}`);
  const fd = openSync(tmp, constants.O_RDWR); // never blocks on a FIFO (Linux); reads block
  const path = `${dir}/${String(Date.now()).padStart(15, "0")}-${String(process.pid).padStart(10, "0")}`;
  renameSync(tmp, path);
  return { fd, path };
}

/** Block until a waker writes to the FIFO. */
function block(p: Parked): void {
  try {
    readSync(p.fd, new Uint8Array(1));
  } finally {
    leave(p);
  }
}

function leave(p: Parked): void {
  closeSync(p.fd);
  rmSync(p.path, { force: true });
}

/** Wake the parked processes of `dir`, oldest first, at most `limit`; returns how many woke. */
function wake(dir: string, limit = Infinity): number {
  let woke = 0;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !n.startsWith(".")).sort();
  } catch {
    return 0;
  }
  for (const name of names) {
    if (woke >= limit) break;
    let fd: number;
    try {
      fd = openSync(`${dir}/${name}`, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch {
      rmSync(`${dir}/${name}`, { force: true }); // its process is gone
      continue;
    }
    try {
      writeSync(fd, "x");
      woke++;
    } catch {}
    closeSync(fd);
  }
  return woke;
}

export function waitFor(stateDir: string, channel: string): void {
  const dir = channelDir(stateDir, channel);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (takeWoken(dir)) return;
  const parked = park(stateDir, dir);
  if (takeWoken(dir)) return leave(parked); // signalled between the first look and parking
  block(parked);
}

export function signal(stateDir: string, channel: string): void {
  const dir = channelDir(stateDir, channel);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!wake(dir) && !existsSync(`${dir}/.woken`)) writeFileSync(`${dir}/.woken`, "", { mode: 0o600 });
}

// ---- locks ---------------------------------------------------------------------------------
// A channel is locked while its `.held` file exists (made with O_EXCL: one taker wins). A waiting
// locker re-tries the file after parking, and an unlocker looks at the queue again after freeing
// it, so a locker that queued while the lock was being freed is never left waiting.

/** The lock directory of a channel for this ws server; other servers' directories (their pid no
 * longer running) are removed as tmux's locks end with its server. */
function lockDir(stateDir: string, serverPid: string, channel: string): string {
  const root = `${stateDir}/lock`;
  mkdirSync(`${root}/${serverPid}`, { recursive: true, mode: 0o700 });
  for (const pid of readdirSync(root)) if (pid !== serverPid && !processAlive(Number(pid))) rmSync(`${root}/${pid}`, { recursive: true, force: true });
  return `${root}/${serverPid}/${fileName(channel)}`;
}

/** Take the lock file; false when it is held. */
function take(dir: string): boolean {
  try {
    closeSync(openSync(`${dir}/.held`, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
}

export function lock(stateDir: string, serverPid: string, channel: string): void {
  const dir = lockDir(stateDir, serverPid, channel);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (take(dir)) return;
  const parked = park(stateDir, dir);
  if (take(dir)) return leave(parked); // freed between the first try and parking
  block(parked); // handed over: `.held` stays, now ours
}

export function unlock(stateDir: string, serverPid: string, channel: string): void {
  const dir = lockDir(stateDir, serverPid, channel);
  if (!existsSync(`${dir}/.held`)) throw new ShimError(`channel ${channel} not locked`);
  if (wake(dir, 1)) return; // handed to the next locker
  rmSync(`${dir}/.held`, { force: true });
  // A locker that parked while the queue was read: take the lock back for it and hand it over.
  while (readdirSync(dir).some((n) => !n.startsWith("."))) {
    if (!take(dir)) return; // it took the lock itself
    if (wake(dir, 1)) return;
    rmSync(`${dir}/.held`, { force: true });
  }
}
