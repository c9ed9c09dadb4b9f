// Which emulator a pane gets: in this thread (the default), or in the emulator worker
// (WS_EMULATOR=worker; src/model/emulator-client.ts).
import { Emulator, type EmulatorOptions } from "./emulator";
import { WorkerEmulator } from "./emulator-client";
import type { PaneEmulator } from "./pane-emulator";

const inWorker = process.env.WS_EMULATOR === "worker";

export function createEmulator(o: EmulatorOptions): PaneEmulator {
  return inWorker ? new WorkerEmulator(o) : new Emulator(o);
}
