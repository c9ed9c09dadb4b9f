// What the fan_* messages share: the fan service, or why there is none.
import { WsError } from "../protocol/errors";
import type { Services } from "../features/services";

export function fansOf(services: Services) {
  const fans = services.get("workstreams")?.fans;
  if (!fans) throw new WsError("fan-out is not supported by this ws build", "unsupported");
  return fans;
}
