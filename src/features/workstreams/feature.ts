// Plugs workstreams into the daemon: the service new_workstream, open_review, workstream_done and
// the dashboard use.
import type { Feature } from "../../server/features";
import { WorkstreamService } from "./service";

export default function workstreamsFeature(): Feature {
  return {
    name: "workstreams",
    provide(d) {
      d.services.provide("workstreams", new WorkstreamService(d.session));
    },
  };
}
