// Faults a test sets off inside a real daemon, to show that one part that throws ends nothing else
// (test/fault-isolation.test.ts). Present only when the daemon starts with WS_TEST_FAULTS=1 in its
// environment, which only tests set (a pane never passes it on: launch.ts); then a `notify` titled
// FAULT_TITLE sets off the fault its body names. Without the variable nothing here runs.
import type { Session } from "../model/session";
import { wantParse } from "../model/parse-slices";
import { slowPacedStepsForTests } from "../model/pace";

export const FAULT_TITLE = "ws-test-fault";

/** The faults, by the notification body that sets each off. */
export const TEST_FAULTS = ["listener", "parse-piece", "slice-done", "rejection", "timer", "slow-steps:MS"] as const;

export function testFaultsWanted(): boolean {
  return process.env.WS_TEST_FAULTS === "1";
}

const fault = (what: string) => new Error(`test fault: ${what}`);

/** WS_TEST_FAULTS=start: the server fails at the end of starting, after binding its socket and
 * starting its panes (test/socket-rules.test.ts: it must leave nothing that looks started). */
export function failAtStartForTests(): void {
  if (process.env.WS_TEST_FAULTS === "start") throw fault("the server failed after binding its socket");
}

/** Installed first on the bus, so the listener that throws runs before every other one. */
export function installTestFaults(session: Session): void {
  session.bus.on((e) => {
    if (e.type !== "notification" || e.title !== FAULT_TITLE) return;
    // A request's paced steps (tab_new's start, each layout_apply pane) each take MS longer: a
    // request then outlives its deadline (test/request-deadline.test.ts); 0 ends it. Each slowed
    // step's end is told as a notification with the body `step-done`.
    const slow = /^slow-steps:(\d+)$/.exec(e.body ?? "");
    if (slow) return slowPacedStepsForTests(Number(slow[1]), () => session.bus.emit({ type: "notification", title: FAULT_TITLE, body: "step-done" }));
    switch (e.body) {
      case "listener":
        throw fault("a bus listener threw");
      case "parse-piece":
        // A parser that throws each time it is asked, alongside every pane's (parse-slices.ts).
        wantParse({
          parsePiece() {
            throw fault("a parser's piece threw");
          },
          sliceDone() {},
        });
        return;
      case "slice-done":
        wantParse({
          parsePiece: () => false,
          sliceDone() {
            throw fault("a parser's sliceDone threw");
          },
        });
        return;
      case "rejection":
        void Promise.reject(fault("a promise nobody awaited was rejected"));
        return;
      case "timer":
        setTimeout(() => {
          throw fault("a timer threw");
        }, 0);
    }
  });
}
