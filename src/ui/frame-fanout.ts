// Every attached client has its own frame scheduler (its own screen to diff, its own pace); what
// the panes do reaches all of them through this one place.

import type { Pane } from "../model/pane";
import type { FrameScheduler } from "./frame-scheduler";

export class FrameFanout {
  /** The pane last typed into, and when: its output is the echo the person waits for. */
  private typed = { pane: -1, at: -Infinity };

  constructor(
    private readonly schedulers: () => Iterable<FrameScheduler>,
    private readonly panes: () => Iterable<Pane>,
  ) {}

  /** A new client's scheduler follows every pane there is. */
  adopt(f: FrameScheduler): void {
    for (const p of this.panes()) f.track(p);
    if (this.typed.pane >= 0) f.typedInto(this.typed.pane, this.typed.at);
  }

  track(p: Pane): void {
    for (const f of this.schedulers()) f.track(p);
  }

  paneOutput(pane: number): void {
    for (const f of this.schedulers()) f.paneOutput(pane);
  }

  /** The typed pane's echo, before it is parsed: each client writes it ahead if it can. Whether one did. */
  echoAhead(pane: Pane, bytes: Uint8Array): boolean {
    let wrote = false;
    for (const f of this.schedulers()) wrote = f.echoAhead(pane, bytes) || wrote;
    return wrote;
  }

  paneClosed(pane: number): void {
    for (const f of this.schedulers()) f.paneClosed(pane);
  }

  /** Whether some client's last frame showed the pane. */
  isVisible(pane: number): boolean {
    for (const f of this.schedulers()) if (f.isVisible(pane)) return true;
    return false;
  }

  lastTyped(): { readonly pane: number; readonly at: number } {
    return this.typed;
  }

  /** The person typed into `pane` (from any client): its output for a while is an echo, drawn at once everywhere. */
  typedInto(pane: number): void {
    this.typed = { pane, at: performance.now() };
    for (const f of this.schedulers()) f.typedInto(pane, this.typed.at);
  }

  invalidate(interval?: number): void {
    for (const f of this.schedulers()) f.invalidate(interval);
  }
}
