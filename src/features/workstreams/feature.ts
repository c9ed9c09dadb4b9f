// Plugs workstreams into the daemon: the service new_workstream, open_review, workstream_done, fan_*
// and the dashboard use, and the interface's new-workstream prompt and ship question.
import type { Feature } from "../feature";
import { WorkstreamService } from "./service";
import { FanService } from "./fan";
import { shipAsker } from "./ship-ask";

export default function workstreamsFeature(): Feature {
  return {
    name: "workstreams",
    provide(d) {
      const svc = new WorkstreamService(d.session);
      svc.fans = new FanService(d.session, svc, () => d.services.get("agents"));
      d.services.provide("workstreams", svc);
    },
    start(d) {
      // Workstreams are files on disk (records.ts): those the session lacks come back, stranded.
      d.services.get("workstreams")?.records.attach(d.session);
      // The interface's new-workstream prompt (and run_command's).
      const ui = d.services.get("ui");
      const svc = d.services.get("workstreams");
      if (ui && svc) ui.newWorkstream = (template, name, repo) => svc.create({ template, name, repo });
      // prefix : ship asks first (the `ship` message doesn't).
      if (ui && svc) ui.shipAsk = shipAsker(svc, d.session);
    },
  };
}
