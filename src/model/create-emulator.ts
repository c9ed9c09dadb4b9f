// Which emulator a pane gets: in this thread (the default), put away while nobody needs it
// (resting-emulator.ts), or in the emulator worker (WS_EMULATOR=worker; src/model/emulator-client.ts).
import { Emulator, type EmulatorOptions } from "./emulator";
import { WorkerEmulator } from "./emulator-client";
import type { PaneEmulator } from "./pane-emulator";
import { REST_MS, RestingEmulator } from "./resting-emulator";

const inWorker = process.env.WS_EMULATOR === "worker";

export function createEmulator(o: EmulatorOptions): PaneEmulator {
  if (inWorker) return new WorkerEmulator(o);
  return REST_MS > 0 ? new RestingEmulator(o) : new Emulator(o);
}
