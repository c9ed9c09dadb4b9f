// Labels follow the program (tmux automatic-rename): which program is in each pane's terminal
// foreground, so a pane running `top` is labelled `top`, not `bash`. A program starting or ending
// in a pane prints or is typed at, so only panes that printed or got input are looked at, a moment
// later, all in one shared timer; while every pane is quiet nothing runs.
import type { Feature } from "./feature";
import type { Session } from "../model/session";
import { foregroundProcess } from "../model/process-info";
import { isLauncherArgv } from "../platform/pty-libc";
import { log } from "../log";

/** How long after a pane's output or input its foreground is looked at (a command typed with
 * Enter has started by then), and so at most how often a busy pane is. */
export const LOOK_AFTER_MS = 300;
/** A title that was just set belongs to whichever program is in the foreground when it is first
 * looked at: that look comes sooner, before a command typed next can take the foreground. */
export const TITLE_LOOK_MS = 30;
/** A program just started may exec another without printing (a wrapper script): a new or
 * respawned pane is looked at once more after this. */
export const SETTLE_LOOK_MS = 1500;

/** A program's name from its argv[0]: the file name, without a login shell's leading dash. */
export function programName(argv0: string): string {
  return (argv0.split("/").pop() ?? argv0).replace(/^-/, "");
}

export class ProgramNames {
  private due = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (performance.now()). */
  private timerAt = 0;
  private looking = false;
  private stopped = false;
  private readonly off: () => void;
  /** Second looks at new panes, by pane (one each at most). */
  private settling = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private session: Session) {
    this.off = session.bus.on((e) => {
      switch (e.type) {
        case "pane_created":
        case "pane_respawned":
          this.started(e.pane);
          return;
        case "pane_output":
        case "pane_input":
          this.mark(e.pane);
          return;
        case "pane_closed":
          clearTimeout(this.settling.get(e.pane));
          this.settling.delete(e.pane);
      }
    });
    // Panes made before the feature started (the first one, a restored session).
    for (const id of session.panes.keys()) this.started(id);
  }

  private started(pane: number): void {
    this.mark(pane);
    clearTimeout(this.settling.get(pane));
    this.settling.set(
      pane,
      setTimeout(() => {
        this.settling.delete(pane);
        this.mark(pane);
      }, SETTLE_LOOK_MS),
    );
  }

  private mark(pane: number): void {
    this.due.add(pane);
    const p = this.session.panes.get(pane);
    this.arm(p?.title && p.titleOwner === undefined ? TITLE_LOOK_MS : LOOK_AFTER_MS);
  }

  /** Look in `ms` at the latest (one timer for every pane; none while a look runs). */
  private arm(ms: number): void {
    if (this.looking || this.stopped) return;
    const at = performance.now() + ms;
    if (this.timer) {
      if (this.timerAt <= at) return;
      clearTimeout(this.timer);
    }
    this.timerAt = at;
    this.timer = setTimeout(() => void this.look(), ms);
  }

  private async look(): Promise<void> {
    this.timer = undefined;
    this.looking = true;
    const ids = [...this.due];
    this.due.clear();
    let starting = false;
    try {
      await Promise.all(
        ids.map(async (id) => {
          try {
            const pane = this.session.panes.get(id);
            if (!pane || pane.exited) return;
            const fg = await foregroundProcess(pane.pid);
            const argv0 = fg?.argv[0];
            if (fg && isLauncherArgv(fg.argv)) {
              // Caught before the program replaced its launcher: look again in a moment.
              starting = true;
              this.due.add(id);
            } else if (fg && argv0) this.session.setForeground(id, { pid: fg.pid, name: programName(argv0), argv: fg.argv });
          } catch (e) {
            // Nothing awaits a look (a timer starts it): one pane's failure is logged here, and
            // the other panes are still named.
            log.error(`naming pane ${id}'s program failed:`, e);
          }
        }),
      );
    } finally {
      this.looking = false;
      // Panes that printed meanwhile are looked at after the same pause.
      if (this.due.size) this.arm(starting ? TITLE_LOOK_MS : LOOK_AFTER_MS);
    }
  }

  stop(): void {
    this.stopped = true;
    this.off();
    if (this.timer) clearTimeout(this.timer);
    for (const t of this.settling.values()) clearTimeout(t);
    this.settling.clear();
  }
}

export default function programNamesFeature(): Feature {
  let names: ProgramNames | undefined;
  return {
    name: "program-names",
    start(d) {
      names = new ProgramNames(d.session);
    },
    stop() {
      names?.stop();
    },
  };
}
