// Which emulator a pane gets: in this thread (the default), or in the emulator worker
// (WS_EMULATOR=worker; src/model/emulator-client.ts).
import { Emulator, type EmulatorOptions } from "./emulator";
import type { Screen } from "./screen";

export function createScreen(o: EmulatorOptions): Screen {
  return new Emulator(o);
}
