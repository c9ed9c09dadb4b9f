// What features offer handlers and each other, each under its name with its type. A feature
// provides its services before any feature starts (Feature.provide), so who uses whom does not
// depend on the order of FEATURES. Only type imports: loading this loads no feature. The services
// the layers above provide (the UI's interface and attach, run_command's runner) are named here by
// what handlers and features use of them, so neither needs to reach up to the UI.
import type { Control } from "./control";
import type { AttachParams } from "../protocol/attach-fields";
import type { PortsOf } from "../model/views";
import type { Session } from "../model/session";
import type { ExitNotice } from "../protocol/frames";
import type { AgentService } from "./agents/service";
import type { PersistenceService } from "./persistence/service";
import type { WorkstreamService } from "./workstreams/service";
import type { ShipQuestion, ShipRequest } from "./workstreams/ship-ask";
import type { ProjectService } from "./projects/feature";
import type { ApprovalService } from "./approvals/service";
import type { QuestionService } from "./approvals/questions";
import type { GrantService } from "./grants/service";
import type { ShimStore } from "./shim-store";

/** Runs an interface action by name, as its key would (run_command). */
export type RunUiActionService = (name: string) => void;

/** tmux command lines run on the server's own model (the tmux shim's parser and command table):
 * what prefix :, keys.toml bindings and ws tmux take besides ws's own words. */
export interface TmuxLineService {
  /** Whether the line's first word names a tmux command (or is a tmux syntax error). */
  knows(line: string): boolean;
  /** What is wrong with a tmux command line (unknown command, flag, syntax); undefined: nothing. */
  check(line: string): string | undefined;
  /** Run it as the person, in `pane`'s place (tmux's current pane) and directory. */
  run(line: string, where: { pane?: number; cwd?: string }): Promise<{ status: number; output: string }>;
}

/** The attach service the UI registers: it takes the connection over. */
export type { AttachParams };
export type AttachService = (p: AttachParams, connection: unknown) => void;

/** What features add to the interface: each unset while its feature is off (ui/interface.ts's
 * Interface has these by declaration merging, so they are declared only here). */
export interface UiHooks {
  /** Set by the agents feature: a tab's mark, the status line's summary, the Dashboard. */
  tabBadge?: (panes: number[]) => string | undefined;
  statusBadge?: () => string | undefined;
  dashboard?: () => void;
  /** Set by the workstreams feature: ws new from the interface (the repo: `cwd`'s checkout). */
  newWorkstream?: (template: string, name: string, cwd: string | undefined) => Promise<unknown>;
  /** Set by the workstreams feature: ship from the interface, asked on the status line first. */
  shipAsk?: (p: ShipRequest) => Promise<ShipQuestion>;
  /** Set by the agents feature: the next agent that waits for the person, after `pane` (prefix !). */
  nextBlockedAgent?: (after: number | undefined) => number | undefined;
  /** Set by the ui feature: read keys.toml again (ws config reload, prefix r). */
  reloadConfig?: () => string[];
  /** Set by the ui feature from the server's tmux service: tmux command lines at prefix :. */
  tmuxLines?: TmuxLineService;
}

/** One attached client, as attach_clients lists it. */
export interface AttachedClientInfo {
  id: number;
  cols: number;
  rows: number;
  term?: string;
  terminal?: string;
  latest: boolean;
  attached_ms: number;
  idle_ms: number;
}

/** The attached interface, as handlers and features use it (ui/interface.ts implements it). */
export interface UiService extends UiHooks {
  readonly session: Session;
  /** True while an action runs from a key the person pressed after the prefix. */
  readonly fromPrefixKey?: boolean;
  /** The attached client, if any (handlers only ask whether there is one). */
  readonly client: unknown;
  /** The attached client's $TERM, when it sent a sane one. */
  readonly clientTerm: string | undefined;
  /** The attached terminal's XTVERSION answer ("tmux 3.3a"), once it has given one. */
  readonly clientVersion: string | undefined;
  /** End the attached client's stream with this notice (ws restart). */
  detachClient(notice: ExitNotice): void;
  /** Ask for a frame no later than `interval` after the last one (an earlier ask wins). */
  invalidate(interval?: number): void;
  /** Raw bytes for the client's terminal outside the grid (OSC 9, OSC 777). */
  sendRaw(s: string): void;
  /** Run a keymap command by name. */
  run(command: string): void;
  /** A line to type on the status line; `submit` gets it. */
  ask(label: string, initial: string, submit: (t: string) => void): void;
  /** `onChar`: a letter key on the selected line (the dashboard's y and n); true closes the list. */
  pick(title: string, items: string[], selected: number, onPick: (i: number) => void, preview?: (i: number) => string[], onChar?: (ch: string, selected: number) => boolean): void;
  /** Stands for the client being served (the one whose key runs, else the latest active one), for
   * a feature that keeps something per client (the Dashboard it opened). */
  readonly servedKey?: object;
  /** Run `fn` once for each attached client, as that client (to redraw what each has open). */
  eachClient?(fn: () => void): void;
  /** The attached clients (attach_clients). */
  clientList?(): AttachedClientInfo[];
  /** End one client's stream by its id; false when no client has it. */
  detachClientId?(id: number, notice: ExitNotice): boolean;
  /** The selected line of the list titled `title`, while that list is on screen (to redraw it live). */
  pickShown?(title: string): number | undefined;
}

export interface ServiceTypes {
  /** Agent statuses and the port scanner (features/agents). */
  agents: AgentService;
  /** Listening ports per pane, for workspace_list (features/agents). */
  portsOf: PortsOf;
  /** Saving and restoring the session (features/persistence). */
  persistence: PersistenceService;
  /** The attached interface, for features that draw on it (ui). */
  ui: UiService;
  /** Turns a connection into an attach stream (ui). */
  attach: AttachService;
  runUiAction: RunUiActionService;
  /** Workstreams: worktrees, templates, reviews (features/workstreams). */
  workstreams: WorkstreamService;
  /** The projects store, read with the daemon's environment (features/projects). */
  projects: ProjectService;
  /** Agents' permission requests waiting for a person (features/approvals). */
  approvals: ApprovalService;
  /** Questions for the person (ws ask; features/approvals/questions.ts). */
  questions: QuestionService;
  /** Each pane's grants (the daemon's own: features/grants). */
  grants: GrantService;
  /** The tmux shim's paste buffers and options (features/shim-store.ts). */
  shim: ShimStore;
  /** tmux command lines at prefix : and in keys.toml (the entry point plugs in the shim's). */
  tmux: TmuxLineService;
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
