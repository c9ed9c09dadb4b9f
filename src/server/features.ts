// Optional parts of the server (agents, ports, persistence, the attach UI) plug in here, so the
// daemon core knows only the Feature interface (features/feature.ts).
import type { Feature } from "../features/feature";

/** Features load lazily so the CLI never pays for them. Add a feature by listing its loader. */
export const FEATURES: (() => Promise<Feature>)[] = [
  async () => (await import("../features/agents/feature")).default(),
  async () => (await import("../ui/feature")).default(),
  async () => (await import("../features/agents/ui-feature")).default(),
  async () => (await import("../features/persistence/feature")).default(),
  async () => (await import("../features/program-names")).default(),
  async () => (await import("../features/workstreams/feature")).default(),
  async () => (await import("../features/projects/feature")).default(),
  async () => (await import("../features/approvals/feature")).default(),
  async () => (await import("../features/shim-store")).default(),
  async () => (await import("../features/push/feature")).default(),
];
