// What a feature is (an optional part of the daemon: agents, persistence, the attach UI, …) and what
// it sees of the daemon. Types only: server/daemon.ts is the host and server/features.ts lists the
// features, so a feature names these without reaching up to the server.
import type { Logger } from "../log";
import type { Session } from "../model/session";
import type { Services } from "./services";

/** The daemon, as a feature sees it. */
export interface FeatureHost {
  readonly session: Session;
  readonly services: Services;
  readonly log: Logger;
  readonly opts: {
    readonly socketPath: string;
    /** A `ws --local` server: private to the client that started it, never saved for later. */
    readonly local?: boolean;
  };
  /** Quit: save first when `keep`, end every pane, remove the socket. */
  shutdown(keep: boolean): Promise<void>;
}

export interface Feature {
  name: string;
  /** Before the first workspace is made: return true if it rebuilt the session itself (restore). */
  restore?(d: FeatureHost): Promise<boolean> | boolean;
  /** Offer this feature's services (d.services.provide). Every feature provides before any starts,
   * so one may use another's in `start` whatever their order in FEATURES. */
  provide?(d: FeatureHost): void;
  /** After the listener is up and the session exists. */
  start?(d: FeatureHost): void | Promise<void>;
  /** Before any pane is stopped at shutdown; `keep` asks to save the session. */
  beforeShutdown?(d: FeatureHost, keep: boolean): void | Promise<void>;
  /** Last: release timers, files, sockets. */
  stop?(d: FeatureHost): void | Promise<void>;
}
