// Plugs persistence into the daemon: restore before the first workspace is made, background saves
// once serving, a last save (or the save's removal) before any pane is stopped.
import type { Feature } from "../feature";
import type { FeatureHost } from "../feature";
import { BUILD, WS_VERSION } from "../../build-info";
import { PersistenceService } from "./service";
import { savePath, serverName } from "./store";

export default function persistenceFeature(): Feature {
  let svc: PersistenceService | undefined;
  const make = (d: FeatureHost) => {
    svc ??= new PersistenceService(d.session, {
      path: savePath(d.opts.socketPath),
      server: serverName(d.opts.socketPath),
      ws: `${WS_VERSION} (${BUILD})`,
      log: d.log,
      agents: () => d.services.get("agents"),
      grants: () => d.services.get("grants"),
    });
    return svc;
  };
  return {
    name: "persistence",
    async restore(d) {
      return make(d).restoreAtStart();
    },
    provide(d) {
      d.services.provide("persistence", make(d));
    },
    start(d) {
      make(d).start();
    },
    async beforeShutdown(_d, keep) {
      await svc?.beforeShutdown(keep);
    },
    stop() {
      svc?.stop();
    },
  };
}
