// Giving the daemon's one thread back while a request starts many panes (a restore, a layout):
// starting one costs a fork and an emulator, and other clients wait for none of the rest.

/** Give the event loop a turn: pending I/O (other clients' requests) runs before what follows. */
export const yieldTurn = (): Promise<void> => new Promise((r) => setImmediate(r));
