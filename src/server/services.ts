// What features offer handlers and each other, each under its name with its type. A feature
// provides its services before any feature starts (Feature.provide), so who uses whom does not
// depend on the order of FEATURES. Only type imports: loading this loads no feature.
import type { Control } from "./control";
import type { PortsOf } from "../model/views";
import type { AttachService } from "../commands/attach";
import type { AgentService } from "../features/agents/service";
import type { PersistenceService } from "../features/persistence/service";
import type { Interface } from "../ui/interface";
import type { WorkstreamService } from "../features/workstreams/service";
import type { ProjectService } from "../features/projects/feature";
import type { ApprovalService } from "../features/approvals/service";

/** Runs a keymap command by name, as its key would (run_command). */
export type RunCommandService = (name: string) => void;

export interface ServiceTypes {
  /** Agent statuses and the port scanner (features/agents). */
  agents: AgentService;
  /** Listening ports per pane, for workspace_list (features/agents). */
  portsOf: PortsOf;
  /** Saving and restoring the session (features/persistence). */
  persistence: PersistenceService;
  /** The attached interface, for features that draw on it (ui). */
  ui: Interface;
  /** Turns a connection into an attach stream (ui). */
  attach: AttachService;
  runCommand: RunCommandService;
  /** Workstreams: worktrees, templates, reviews (features/workstreams). */
  workstreams: WorkstreamService;
  /** The projects store, read with the daemon's environment (features/projects). */
  projects: ProjectService;
  /** Agents' permission requests waiting for a person (features/approvals). */
  approvals: ApprovalService;
}

export class Services {
  private provided: Partial<ServiceTypes> = {};

  /** The daemon's own control service is always there. */
  constructor(readonly control: Control) {}

  provide<K extends keyof ServiceTypes>(name: K, service: ServiceTypes[K]): void {
    if (this.provided[name] !== undefined) throw new Error(`the ${name} service is provided twice`);
    this.provided[name] = service;
  }

  /** A service, or undefined when no feature of this build provides it. */
  get<K extends keyof ServiceTypes>(name: K): ServiceTypes[K] | undefined {
    return this.provided[name];
  }
}
