// Optional parts of the server (agents, ports, persistence, the attach UI) plug in here, so the
// daemon core knows only this interface.
import type { Daemon } from "./daemon";

export interface Feature {
  name: string;
  /** Before the first workspace is made: return true if it rebuilt the session itself (restore). */
  restore?(d: Daemon): Promise<boolean> | boolean;
  /** Offer this feature's services (d.services.provide). Every feature provides before any starts,
   * so one may use another's in `start` whatever their order in FEATURES. */
  provide?(d: Daemon): void;
  /** After the listener is up and the session exists. */
  start?(d: Daemon): void | Promise<void>;
  /** Before any pane is stopped at shutdown; `keep` asks to save the session. */
  beforeShutdown?(d: Daemon, keep: boolean): void | Promise<void>;
  /** Last: release timers, files, sockets. */
  stop?(d: Daemon): void | Promise<void>;
}

/** Features load lazily so the CLI never pays for them. Add a feature by listing its loader. */
export const FEATURES: (() => Promise<Feature>)[] = [
  async () => (await import("../features/agents/feature")).default(),
  async () => (await import("../ui/feature")).default(),
  async () => (await import("../features/agents/ui-feature")).default(),
  async () => (await import("../features/persistence/feature")).default(),
  async () => (await import("../features/program-names")).default(),
  async () => (await import("../features/workstreams/feature")).default(),
  async () => (await import("../features/projects/feature")).default(),
  async () => (await import("../features/approvals/feature")).default(),
];
