// One bus for every change to the model. The UI, persistence, waits and event subscribers all read
// it, so nothing has to know who else is listening. Events are a discriminated union on `type`: a
// listener that switches on it gets each event's fields typed.
import type { FinishedCommand } from "./shell-marks";
import { log } from "../log";

/** A change to the model; only the Session publishes these. */
export type ModelChange =
  | { type: "workspace_created"; workspace: string }
  | { type: "workspace_closed"; workspace: string }
  | { type: "workspace_focused"; workspace: string }
  /** `workspace` is the new name, `from` the old one. */
  | { type: "workspace_renamed"; workspace: string; from: string }
  | { type: "tab_created"; workspace: string; tab: number; name: string }
  | { type: "tab_closed"; workspace: string; tab: number }
  | { type: "tab_focused"; workspace: string; tab: number }
  /** A tab's name or its project changed: the field that changed is set. */
  | { type: "tab_renamed"; workspace: string; tab: number; name?: string; project?: string }
  | { type: "pane_created"; workspace: string; tab: number; pane: number }
  /** `workspace` and `tab` are missing for a pane that was in no tab. */
  | { type: "pane_closed"; pane: number; workspace?: string; tab?: number }
  | { type: "pane_focused"; workspace: string; tab: number; pane: number }
  /** A pane's label changed: its program set a title, another program came to its foreground, or
   * pane_rename named it (then `name` is set: the name, or null when cleared). */
  | { type: "pane_renamed"; pane: number; title: string; label: string; name?: string | null }
  | { type: "pane_exited"; pane: number; exit_code: number | null; signal: string | null }
  | { type: "layout_changed"; workspace: string; tab: number }
  /** pane_respawn started a program in the pane again. */
  | { type: "pane_respawned"; workspace: string; tab: number; pane: number }
  /** pane_move put a pane (same id, same program) in another tab: `from_*` say where it was. */
  | { type: "pane_moved"; workspace: string; tab: number; pane: number; from_workspace: string; from_tab: number }
  | { type: "screen_resized"; cols: number; rows: number }
  /** A pane's emulator parsed new output. */
  | { type: "pane_output"; pane: number }
  /** A pane's shell started a command line (OSC 133 C; shell-marks.ts). */
  | { type: "command_started"; pane: number; command?: string }
  /** It finished (OSC 133 D); `result` reads its output (for `run`; not published). */
  | { type: "command_finished"; pane: number; command?: string; exit_code: number | null; result: FinishedCommand }
  /** A popup pane opened over a tab (popup.ts); `pane_created` came first. */
  | { type: "popup_opened"; workspace: string; tab: number; pane: number }
  /** It closed (after its `pane_closed`): how its program ended, both null if it was still running. */
  | { type: "popup_closed"; workspace: string; tab: number; pane: number; exit_code: number | null; signal: string | null }
  /** A workstream was recorded (ws new, ws review, a restore); `workspace` and `tab` while its tab is open. */
  | { type: "workstream_created"; workstream: string; workspace?: string; tab?: number }
  /** ws done forgot it. */
  | { type: "workstream_closed"; workstream: string };

/** What the rest of the daemon publishes beside the model's changes. */
export type DaemonEvent =
  | { type: "server_quitting" }
  /** The attached client typed into a pane. */
  | { type: "pane_input"; pane: number }
  | { type: "ports_changed"; panes: number[] }
  | { type: "agent_status"; pane: number; status: string | null; before: string | null; detail?: string }
  | { type: "agent_attention"; pane: number; status: string; detail?: string }
  /** A hook report that gives a status, changed or not (a wait's end: Codex ends turn after turn in
   * `done`). Internal: not published to subscribers, not a reason to save. */
  | { type: "agent_report"; pane: number; status: string }
  /** The program in a pane's terminal foreground, as last looked at (program-names.ts), when its
   * process or argv changed. Internal: not published to subscribers, not a reason to save. */
  | { type: "pane_foreground"; pane: number; pid: number; argv: string[] }
  /** A pane's program rang the bell (for the user's terminal; not a change to the model). */
  | { type: "pane_bell"; pane: number }
  /** It set the clipboard (OSC 52): `data` is "Pc;base64", checked; the interface may pass it on. */
  | { type: "pane_clipboard"; pane: number; data: string }
  /** A script's notify: for the status line, the outer terminal and subscribers. */
  | { type: "notification"; title: string; body?: string; pane?: number }
  /** A workstream's worktree was checkpointed (features/workstreams/checkpoints.ts). */
  | { type: "checkpoint_saved"; workstream: string; n: number; commit: string; files: number; text: string }
  /** ws fan made its candidates (features/workstreams/fan.ts). */
  | { type: "fan_started"; fan: string; template: string; workstreams: string[]; base: string; tiled: boolean }
  /** A fan candidate's agent finished a turn; `check`: the template's check's result, when it has one. */
  | { type: "fan_candidate_done"; fan: string; workstream: string; k: number; check?: { exit_code: number; passed: boolean; ms: number } }
  /** ship (through the server) committed, pushed or opened a PR. */
  | { type: "shipped"; workstream: string; branch: string; commit?: string; pushed: boolean; pr?: string }
  /** An agent's hook asked for permission (features/approvals): the inbox's new row. */
  | { type: "approval_requested"; id: number; pane: number; tool: string; summary: string; [k: string]: unknown }
  /** It ended: answered in ws, by the agent's own dialog, by the hook's time limit, or the hook went. */
  | { type: "approval_resolved"; id: number; pane: number; behavior: string; by: string; message?: string }
  /** A pane (or a script: no pane) asked the person a question (ws ask; features/approvals/questions.ts). */
  | { type: "question_asked"; id: number; pane?: number; question: string; choices: string[] }
  /** It ended: answered in ws (`answer`), at its time limit, or its asker went. */
  | { type: "question_answered"; id: number; pane?: number; by: string; answer?: string }
  /** A prompt joined an agent's queue (ws agent send --when; features/agents/queue.ts). */
  | { type: "prompt_queued"; id: number; pane: number; when: string; position: number }
  /** It was typed into its agent. */
  | { type: "prompt_delivered"; id: number; pane: number; when: string }
  /** It left the queue untyped: `reason` cancelled, pane_closed or pane_exited. */
  | { type: "prompt_cancelled"; id: number; pane: number; reason: string };

export type ModelEvent = ModelChange | DaemonEvent;
export type ModelEventType = ModelEvent["type"];

export type Listener = (e: ModelEvent) => void;

export class EventBus {
  private listeners = new Set<Listener>();

  on(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  emit(e: ModelEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        // One broken listener must not stop the others, nor the change that raised the event.
        log.error(`event listener failed on ${e.type}:`, err);
      }
    }
  }
}
