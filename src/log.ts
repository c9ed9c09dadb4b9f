// The daemon's one logger: every part of the server (model, features, handlers, the daemon itself)
// logs through `log`, at a level, as one line each: `<ISO time> [<level>] <message>`. Lines go to
// stderr with a synchronous write, so they land in order and the last one before a crash is on
// disk. Started by `ws start`, the daemon's stderr is its log file (<state>/ws/<name>.log): before
// a line would take it past LOG_MAX_BYTES it is copied to <name>.log.1 and emptied (keepLogSmall),
// so a long-lived server's log takes at most twice that. A small logger of our own, not consola: the model layer and the
// helper processes log too and should not load a formatting library, and consola's reporters
// write through streams, which a rotation could cut between the copy and the truncation.
import { copyFileSync, constants, fstatSync, ftruncateSync, statSync, unlinkSync, writeSync } from "node:fs";

export const LEVELS = ["error", "warn", "info", "debug"] as const;
export type Level = (typeof LEVELS)[number];

/** A positive integer from the environment, else the default. */
function fromEnv(name: string, dflt: number): number {
  const n = Number(process.env[name]);
  return Number.isSafeInteger(n) && n > 0 ? n : dflt;
}

/** The log file's size at which it is rotated (`WS_LOG_MAX_BYTES` in the server's environment). */
export const LOG_MAX_BYTES = fromEnv("WS_LOG_MAX_BYTES", 8 * 1024 * 1024);

/** Lines above this level are left out: `WS_LOG_LEVEL` (error, warn, info, debug; default info). */
function threshold(): number {
  const i = LEVELS.indexOf((process.env.WS_LOG_LEVEL ?? "") as Level);
  return i >= 0 ? i : LEVELS.indexOf("info");
}

export interface Logger {
  error(message: string, ...more: unknown[]): void;
  warn(message: string, ...more: unknown[]): void;
  info(message: string, ...more: unknown[]): void;
  debug(message: string, ...more: unknown[]): void;
}

/** An argument as console.error would print it: strings as they are, errors with their stacks. */
function shown(x: unknown): string {
  return typeof x === "string" ? x : Bun.inspect(x);
}

let rotating: { path: string; maxBytes: number } | undefined;

function write(level: Level, message: string, more: unknown[]): void {
  if (LEVELS.indexOf(level) > threshold()) return;
  const line = `${new Date().toISOString()} [${level}] ${[message, ...more].map(shown).join(" ")}\n`;
  if (rotating) rotateIfFull(rotating.path, rotating.maxBytes, Buffer.byteLength(line));
  try {
    writeSync(2, line);
  } catch {
    // stderr gone (closed, or its disk full): nothing to tell anyone
  }
}

export const log: Logger = {
  error: (m, ...more) => write("error", m, more),
  warn: (m, ...more) => write("warn", m, more),
  info: (m, ...more) => write("info", m, more),
  debug: (m, ...more) => write("debug", m, more),
};

/** Keep the log at `path` within `maxBytes` (a single longer line aside), when it is this process's stderr (as
 * `ws start` sets it up; a person's `ws server` writing to a terminal or elsewhere is left be). */
export function keepLogSmall(path: string, maxBytes = LOG_MAX_BYTES): void {
  try {
    const err = fstatSync(2);
    const file = statSync(path);
    if (!err.isFile() || err.dev !== file.dev || err.ino !== file.ino) return;
  } catch {
    return;
  }
  rotating = { path, maxBytes };
  rotateIfFull(path, maxBytes, 0);
}

/** Copy and truncate: the log's descriptors (stdout and stderr, opened for appending by `ws start`)
 * stay where they are, so whatever writes to them, Bun's own last words included, goes on landing
 * in the current file. */
function rotateIfFull(path: string, maxBytes: number, coming: number): void {
  try {
    const size = fstatSync(2).size;
    if (size === 0 || size + coming <= maxBytes) return;
    const old = `${path}.1`;
    try {
      unlinkSync(old);
    } catch {}
    copyFileSync(path, old, constants.COPYFILE_EXCL);
    ftruncateSync(2, 0);
  } catch {
    // The copy failed (a full disk): empty the log anyway, as its size is the bound that matters.
    try {
      ftruncateSync(2, 0);
    } catch {}
  }
}
