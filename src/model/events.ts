// One bus for every change to the model. The UI, persistence, waits and event subscribers all read
// it, so nothing has to know who else is listening. Each event is declared once, with its fields
// (protocol/event-decl.ts); the bus's type is the union of the declarations, discriminated on
// `type`: a listener that switches on it gets each event's fields typed.
import type { FinishedCommand } from "./shell-marks";
import { log } from "../log";
import { defineEvents, type EventsOf } from "../protocol/event-decl";
import { shapeTyped } from "../protocol/schema";

const S = { type: "string" } as const;
const I = { type: "integer" } as const;
const where = {
  workspace: { ...S, description: "The workspace" },
  tab: { ...I, description: "The tab's id" },
} as const;
const pane = { ...I, description: "The pane" } as const;

/** Changes to the model; only the Session publishes these. */
export const MODEL_CHANGES = defineEvents({
  workspace_created: { description: "A workspace was created", fields: { workspace: where.workspace }, saves: true, published: true },
  workspace_closed: { description: "A workspace was closed", fields: { workspace: where.workspace }, saves: true, published: true },
  workspace_focused: { description: "A workspace came on screen", fields: { workspace: where.workspace }, saves: true, published: true },
  workspace_renamed: { description: "A workspace was renamed", fields: { workspace: { ...S, description: "Its new name" }, from: { ...S, description: "Its old name" } }, saves: true, published: true },
  tab_created: { description: "A tab was opened", fields: { ...where, name: { ...S, description: "Its name" } }, saves: true, published: true },
  tab_closed: { description: "A tab was closed", fields: where, saves: true, published: true },
  tab_focused: { description: "A tab became its workspace's active one", fields: where, saves: true, published: true },
  tab_renamed: {
    description: "A tab's name or its project changed: the field that changed is set",
    fields: { ...where, name: { ...S, optional: true, description: "Its new name" }, project: { ...S, optional: true, description: "Its new project" } },
    saves: true,
    published: true,
  },
  pane_created: { description: "A pane was started", fields: { ...where, pane }, saves: true, published: true },
  pane_closed: {
    description: "A pane was closed; `workspace` and `tab` are missing for a pane that was in no tab",
    fields: { pane, workspace: { ...where.workspace, optional: true }, tab: { ...where.tab, optional: true } },
    saves: true,
    published: true,
  },
  pane_focused: { description: "A pane became its tab's focused one", fields: { ...where, pane }, saves: true, published: true },
  pane_renamed: {
    description: "A pane's label changed: its program set a title, another program came to its foreground, or pane_rename named it (then `name` is set: the name, or null when cleared)",
    fields: { pane, title: { ...S, description: "The title its program set" }, label: { ...S, description: "The name ws shows" }, name: { type: "string|null", optional: true, description: "pane_rename's name (null: cleared)" } },
    // A title, which programs may set at every prompt, is saved with the next change.
    saves: { ifSet: "name" },
    published: true,
  },
  pane_exited: {
    description: "A pane's program exited",
    fields: { pane, exit_code: { type: "integer|null", description: "Its exit code (null when a signal ended it)" }, signal: { type: "string|null", description: "The signal that ended it" } },
    saves: true,
    published: true,
  },
  layout_changed: { description: "A tab's layout changed (a split, a resize, a zoom, a pane moved)", fields: where, saves: true, published: true },
  tab_moved: {
    description: "A tab moved to another place among its workspace's tabs (layout_apply's replacement, a workstream's tab)",
    fields: { ...where, index: { ...I, description: "Its place now, from 0" }, from: { ...I, description: "Its place before" } },
    saves: true,
    published: true,
  },
  pane_border_changed: {
    description: "tmux's pane border settings changed through the shim (pane_border): the pane's own format, or its tab's format or status",
    fields: { ...where, pane },
    // Border settings are the shim's and are not saved.
    saves: false,
    published: true,
  },
  pane_respawned: { description: "pane_respawn started a program in the pane again", fields: { ...where, pane }, saves: true, published: true },
  pane_moved: {
    description: "pane_move put a pane (same id, same program) in another tab",
    fields: { ...where, pane, from_workspace: { ...S, description: "The workspace it was in" }, from_tab: { ...I, description: "The tab it was in" } },
    saves: true,
    published: true,
  },
  client_resized: { description: "The attached client's size changed", fields: { cols: { ...I, description: "Columns" }, rows: { ...I, description: "Rows" } }, saves: true, published: false },
  // Every echo comes through here: subscribers get it as the opt-in, rate-limited `output`.
  pane_output: { description: "A pane's emulator parsed new output", fields: { pane }, saves: false, published: false },
  command_started: {
    description: "A pane's shell started a command line (OSC 133 C)",
    fields: { pane, command: { ...S, optional: true, description: "The command line, when the shell's marks show it" } },
    // A command that ends may have moved its shell elsewhere: the pane's directory is saved.
    saves: true,
    published: true,
  },
  command_finished: {
    description: "A pane's shell finished a command (OSC 133 D)",
    fields: {
      pane,
      command: { ...S, optional: true, description: "The command line, when the shell's marks show it" },
      exit_code: { type: "integer|null", description: "Its exit status (null when the shell gave none)" },
      result: shapeTyped<FinishedCommand>()({ type: "object", internal: true, description: "Reads its output (for `run`)" }),
    },
    saves: true,
    published: true,
  },
  popup_opened: { description: "A popup pane opened over a tab; `pane_created` came first", fields: { ...where, pane }, saves: true, published: true },
  popup_closed: {
    description: "A popup closed (after its `pane_closed`): how its program ended, both null if it was still running",
    fields: { ...where, pane, exit_code: { type: "integer|null", description: "Its exit code" }, signal: { type: "string|null", description: "The signal that ended it" } },
    saves: true,
    published: true,
  },
});

/** What the rest of the daemon publishes beside the model's changes (features declare their own). */
export const DAEMON_EVENTS = defineEvents({
  server_quitting: { description: "The server is about to quit", fields: {}, saves: false, published: false },
  pane_input: { description: "The attached client typed into a pane", fields: { pane }, saves: false, published: false },
  pane_bell: { description: "A pane's program rang the bell (for the person's terminal)", fields: { pane }, saves: false, published: false },
  pane_clipboard: {
    description: "A pane's program set the clipboard (OSC 52); the interface may pass it on",
    fields: { pane, data: { ...S, description: '"Pc;base64", checked' } },
    saves: false,
    published: false,
  },
  pane_foreground: {
    description: "The program in a pane's terminal foreground, as last looked at, when its process or argv changed",
    fields: { pane, pid: { ...I, description: "Its process" }, argv: { type: "string[]", description: "Its argv" } },
    saves: false,
    published: false,
  },
  notification: {
    description: "A script's notify: for the status line, the outer terminal and subscribers",
    fields: { title: { ...S, description: "The title" }, body: { ...S, optional: true, description: "The text" }, pane: { ...pane, optional: true, description: "The pane it is about" } },
    saves: false,
    published: true,
  },
});

/** Events features declare, by feature, each in its own events.ts (declaration merging adds them). */
// biome-ignore lint/suspicious/noEmptyInterface: features add their events to it.
export interface FeatureEvents {}

/** A change to the model; only the Session publishes these. */
export type ModelChange = EventsOf<typeof MODEL_CHANGES>;

/** What the rest of the daemon publishes beside the model's changes. */
export type DaemonEvent = EventsOf<typeof DAEMON_EVENTS> | FeatureEvents[keyof FeatureEvents];

export type ModelEvent = ModelChange | DaemonEvent;
export type ModelEventType = ModelEvent["type"];

export type Listener = (e: ModelEvent) => void;

export class EventBus {
  private listeners = new Set<Listener>();
  /** Heard before the others, whenever they were added. */
  private ahead = new Set<Listener>();

  on(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Listen ahead of every `on` listener: the attached clients' frames, so a key's echo goes out
   * before the features' bookkeeping of the same output. */
  onFirst(l: Listener): () => void {
    this.ahead.add(l);
    return () => this.ahead.delete(l);
  }

  emit(e: ModelEvent): void {
    if (this.ahead.size) for (const l of this.ahead) call(l, e);
    for (const l of this.listeners) call(l, e);
  }
}

function call(l: Listener, e: ModelEvent): void {
  try {
    l(e);
  } catch (err) {
    // One broken listener must not stop the others, nor the change that raised the event.
    log.error(`event listener failed on ${e.type}:`, err);
  }
}
