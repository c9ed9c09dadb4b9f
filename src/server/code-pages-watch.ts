// When the server lets go of its executable's pages (Linux; src/platform/code-pages.ts says how):
// once it has started, and again each time its work has brought many of them back. A quiet server
// still runs its periodic work (the port scan, the scrollback save, the status clock, the JIT
// compiling whatever of it became hot), and each page that runs comes back with its neighbours
// (fault-around): left alone, a server unmapped down to 36 MB was back at 43 MB within a minute.
import type { Logger } from "../log";
import { envInt } from "../model/limits";
import { msSinceInput } from "../model/parse-slices";
import { dropCodePages, residentFileKb } from "../platform/code-pages";

/** How long after it starts the server lets go of its start-up code: by then the first pane's
 * shell has drawn its prompt and the first client has attached. */
export const DROP_CODE_PAGES_AFTER_MS = 2000;
/** How often the server looks at how much of its files is resident again (one read of
 * /proc/self/status; `WS_CODE_PAGES_CHECK_MS`: tests look more often). */
export const CODE_PAGES_CHECK_MS = envInt("WS_CODE_PAGES_CHECK_MS", 10_000);
/** Growth past the settled level that has the pages let go of again. A drop costs ~3 ms and
 * ~150 minor faults as the working set comes back; a JIT compile or a save brings 1–4 MB. */
export const CODE_PAGES_REGROWN_KB = 1024;
/** And at least this often (when quiet), whatever came back: the level a drop settles at is taken
 * at the first look after it, which may fall in a burst (panes opening, a flood) and stay high. */
export const CODE_PAGES_DROP_EVERY_MS = 30_000;
/** Not while someone types: the next key would fault the echo's code back in. */
export const CODE_PAGES_QUIET_MS = 2000;

export type CodePagesStep = "settle" | "drop" | "wait";

/**
 * What a look decides. `settledKb`: the level seen at the first look after the last drop, which
 * is what the server's steady work brought back at once (undefined: not seen yet); `sinceDropMs`:
 * since the last drop; `quietMs`: since someone last typed.
 */
export function codePagesStep(settledKb: number | undefined, nowKb: number, sinceDropMs: number, quietMs: number): CodePagesStep {
  if (settledKb === undefined) return "settle";
  if (quietMs < CODE_PAGES_QUIET_MS) return "wait";
  return nowKb - settledKb >= CODE_PAGES_REGROWN_KB || sinceDropMs >= CODE_PAGES_DROP_EVERY_MS ? "drop" : "wait";
}

export class CodePagesWatch {
  private settledKb: number | undefined;
  private droppedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private log: Logger,
    private stopping: () => boolean,
  ) {}

  start(): void {
    this.timer = setTimeout(() => {
      if (!this.drop("of start-up code")) return;
      this.timer = setInterval(() => this.look(), CODE_PAGES_CHECK_MS);
      this.timer.unref();
    }, DROP_CODE_PAGES_AFTER_MS);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private look(): void {
    const kb = residentFileKb();
    if (kb === undefined || this.stopping()) return this.stop();
    const step = codePagesStep(this.settledKb, kb, performance.now() - this.droppedAt, msSinceInput());
    if (step === "settle") this.settledKb = kb;
    else if (step === "drop") this.drop(`again (${kb - this.settledKb!} kB more than after the last)`);
  }

  /** Whether this system lets the pages go (Linux with glibc). */
  private drop(what: string): boolean {
    if (this.stopping()) return false;
    const kb = dropCodePages();
    if (kb === undefined) return false;
    this.settledKb = undefined;
    this.droppedAt = performance.now();
    this.log.debug(`unmapped ${kb} kB ${what}`);
    return true;
  }
}
