// wait-for CHANNEL / wait-for -S CHANNEL across shim processes, as tmux's server does it: a waiter
// blocks until a signal; a signal with nobody waiting is remembered and wakes the next waiter.
// Each waiter is a FIFO in the channel's directory, opened for reading before it is put there, so
// a signaller sees only FIFOs with a reader (or left by a waiter that died: removed).
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { ShimError } from "./world";

const channelDir = (stateDir: string, channel: string) => `${stateDir}/wait/${Buffer.from(channel).toString("hex")}`;

/** Consume a remembered signal, if there is one. */
function takeWoken(dir: string): boolean {
  try {
    unlinkSync(`${dir}/.woken`);
    return true;
  } catch {
    return false;
  }
}

export function waitFor(stateDir: string, channel: string): void {
  const dir = channelDir(stateDir, channel);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (takeWoken(dir)) return;
  const tmp = `${stateDir}/wait/.${process.pid}.fifo`;
  const mk = Bun.spawnSync(["mkfifo", "-m", "600", tmp]);
  if (mk.exitCode !== 0) throw new ShimError(`wait-for: can't make a fifo: ${mk.stderr.toString().trim()}`);
  const presence = openSync(tmp, constants.O_RDONLY | constants.O_NONBLOCK);
  const mine = `${dir}/${process.pid}`;
  renameSync(tmp, mine);
  try {
    if (takeWoken(dir)) return; // signalled between the first look and registering
    const fd = openSync(mine, "r"); // blocks until a signaller opens it for writing
    readSync(fd, new Uint8Array(1));
    closeSync(fd);
  } finally {
    closeSync(presence);
    rmSync(mine, { force: true });
  }
}

export function signal(stateDir: string, channel: string): void {
  const dir = channelDir(stateDir, channel);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let woke = 0;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".")) continue;
    let fd: number;
    try {
      fd = openSync(`${dir}/${name}`, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch {
      rmSync(`${dir}/${name}`, { force: true }); // its waiter is gone
      continue;
    }
    try {
      writeSync(fd, "x");
      woke++;
    } catch {}
    closeSync(fd);
  }
  if (!woke && !existsSync(`${dir}/.woken`)) writeFileSync(`${dir}/.woken`, "", { mode: 0o600 });
}
