// Where Web Push keeps its state: the VAPID key pair and the phones' subscriptions, in
// <state>/ws/push/ (mode 0700, files 0600). Files rather than the server's memory, so whichever
// process takes a subscription (`ws web`, serving the phone page) and the server that sends
// notifications share them, and both survive a restart.
import { mkdirSync } from "node:fs";
import { readTextFileIfAny } from "../../safe-file";
import { writeAtomicSync } from "../../write-atomic";
import { wsDir } from "../../xdg-dirs";

export type Env = Record<string, string | undefined>;

/** Far past a key file or 32 subscriptions; a file past it is treated as unreadable. */
const MAX_FILE = 256 * 1024;

export function pushDir(env: Env = process.env): string {
  return wsDir("state", env, "push");
}

/** The file's JSON, or undefined when it is missing, unreadable or not JSON (it is then made anew). */
export function readJsonFile(path: string): unknown {
  try {
    const text = readTextFileIfAny(path, MAX_FILE, true);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function writeJsonFile(env: Env, name: string, value: unknown): void {
  const dir = pushDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeAtomicSync(`${dir}/${name}`, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}
