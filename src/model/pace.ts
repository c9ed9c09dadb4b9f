// Giving the daemon's one thread back while a request starts many panes (a restore, a layout):
// starting one costs a fork and an emulator, and other clients wait for none of the rest.

/** Give the event loop a turn: pending I/O (other clients' requests) runs before what follows. */
export const yieldTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A test's slowing of each paced step (src/server/test-faults.ts, only under WS_TEST_FAULTS=1). */
let testStepDelayMs = 0;
let testStepDone: (() => void) | undefined;
export function slowPacedStepsForTests(ms: number, done?: () => void): void {
  testStepDelayMs = ms;
  testStepDone = done;
}

/** A request's pace: a turn for others, then the request's signal asked (its deadline, its
 * connection): aborted, it throws the reason into the build, which stops what it started. */
export function pacedUntil(signal: AbortSignal | undefined): () => Promise<void> {
  return async () => {
    await yieldTurn();
    if (testStepDelayMs) {
      await new Promise((r) => setTimeout(r, testStepDelayMs));
      testStepDone?.();
    }
    signal?.throwIfAborted();
  };
}
