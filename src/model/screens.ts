// Which emulator a pane gets: in this thread (the default), or in the emulator worker
// (WS_EMULATOR=worker; src/model/emulator-client.ts).
import { Emulator, type EmulatorOptions } from "./emulator";
import { WorkerScreen } from "./emulator-client";
import type { Screen } from "./screen";

const inWorker = process.env.WS_EMULATOR === "worker";

export function createScreen(o: EmulatorOptions): Screen {
  return inWorker ? new WorkerScreen(o) : new Emulator(o);
}
