// Keeps each pane's listening ports fresh in the background, one scan at a time.

import { type ListeningPort, type PaneProcess, portScanner } from "./ports.ts";

export interface PortWatchOptions {
  /** Between the end of one scan and the start of the next. */
  intervalMs?: number;
  /** Called with the panes whose port list changed. */
  onChange?: (panes: number[]) => void;
}

export class PortWatch {
  private current = new Map<number, ListeningPort[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private readonly scanner = portScanner();

  /** `panes` gives pane id → the pane's process (and its foreground process, when known: a
   * change there has that pane looked at again), read at each scan. */
  constructor(
    private panes: () => ReadonlyMap<number, number | PaneProcess>,
    private opts: PortWatchOptions = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Sorted ports of one pane; empty when none. */
  ports(pane: number): number[] {
    return (this.current.get(pane) ?? []).map((p) => p.port);
  }

  /** Every pane's listeners, for the dashboard. */
  entries(): [number, ListeningPort[]][] {
    return [...this.current];
  }

  /** Scans made and pane trees walked (where /proc is read; undefined before the first scan or
   * elsewhere): an idle pane is not walked again. */
  get stats(): { readonly scans: number; readonly searches: number; readonly walks: number } | undefined {
    return this.scanner.stats;
  }

  /** Scan now; a scan already under way is shared rather than doubled. */
  refresh(): Promise<void> {
    this.running ??= this.scan().finally(() => (this.running = undefined));
    return this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.refresh().finally(() => this.schedule(this.opts.intervalMs ?? 2000));
    }, ms);
    // The watcher alone must not keep a process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async scan(): Promise<void> {
    let next: Map<number, ListeningPort[]>;
    try {
      const panes = new Map<number, PaneProcess>();
      for (const [id, p] of this.panes()) panes.set(id, typeof p === "number" ? { pid: p, foreground: 0 } : p);
      next = await this.scanner.scan(panes);
    } catch {
      return; // keep the last good answer; the next tick tries again
    }
    const changed: number[] = [];
    for (const pane of new Set([...this.current.keys(), ...next.keys()])) {
      const key = (l?: ListeningPort[]) => (l ?? []).map((p) => `${p.port}:${p.pid}`).join(",");
      if (key(this.current.get(pane)) !== key(next.get(pane))) changed.push(pane);
    }
    this.current = next;
    if (changed.length) this.opts.onChange?.(changed);
  }
}
