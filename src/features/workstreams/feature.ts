// Plugs workstreams into the daemon: the service new_workstream, open_review, workstream_done and
// the dashboard use, and the interface's new-workstream prompt.
import type { Feature } from "../../server/features";
import { WorkstreamService } from "./service";

export default function workstreamsFeature(): Feature {
  return {
    name: "workstreams",
    provide(d) {
      d.services.provide("workstreams", new WorkstreamService(d.session));
    },
    start(d) {
      // The interface's new-workstream prompt (and run_command's).
      const ui = d.services.get("ui");
      const svc = d.services.get("workstreams");
      if (ui && svc) ui.newWorkstream = (template, name, repo) => svc.create({ template, name, repo });
    },
  };
}
