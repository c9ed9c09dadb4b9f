// The replies tests read, typed in one place: the model's own types where the server builds the
// reply from one (views.ts, catalogue.ts), else the registry entry's `replyFields` written out.
// A request's fields are typed from its registry entry (`Static` of its `fields`). `s.v6()` and
// `s.call()` in test/harness.ts return these for the messages named here.
import type { MessageDoc, catalogue } from "../src/commands/catalogue";
import type { MessageEntry } from "../src/commands/types";
import type { PaneListing, WorkspaceInfo, snapshot } from "../src/model/views";
import type { ErrorCode } from "../src/protocol/errors";
import type { Fields, Static } from "../src/protocol/schema";
import type { Dashboard } from "../src/features/agents/service";
import type { DashboardWorkstream } from "../src/features/workstreams/service";
import type dashboard from "../src/commands/dashboard";
import type describe from "../src/commands/describe";
import type search from "../src/commands/search";
import type hello from "../src/commands/hello";
import type pane_info from "../src/commands/pane_info";
import type pane_list from "../src/commands/pane_list";
import type pane_read from "../src/commands/pane_read";
import type session_snapshot from "../src/commands/session_snapshot";
import type workspace_list from "../src/commands/workspace_list";
import type approval_list from "../src/commands/approval_list";
import type agent_queue_list from "../src/commands/agent_queue_list";
import type agent_list from "../src/commands/agent_list";
import type checkpoint_list from "../src/commands/checkpoint_list";
import type fan_status from "../src/commands/fan_status";
import type tab_new from "../src/commands/tab_new";
import type split from "../src/commands/split";
import type pane_respawn from "../src/commands/pane_respawn";
import type layout_export from "../src/commands/layout_export";
import type layout_apply from "../src/commands/layout_apply";
import type new_workstream from "../src/commands/new_workstream";
import type fan_start from "../src/commands/fan_start";
import type fan_compare from "../src/commands/fan_compare";
import type pane_resize from "../src/commands/pane_resize";
import type session_restore from "../src/commands/session_restore";
import type wait_for from "../src/commands/wait_for";
import type { layoutReply } from "../src/model/views";
import type { TreeNode } from "../src/model/tree";
import type { ApprovalService } from "../src/features/approvals/service";
import type { When } from "../src/features/agents/queue";
import type { Checkpoint } from "../src/features/workstreams/checkpoints";
import type { FanRow } from "../src/features/workstreams/fan";

/** A refusal at v6 (docs/protocol-reference.md, Errors). */
export interface ErrorReply {
  v?: number;
  id?: number | string;
  type: "error";
  code: ErrorCode;
  message: string;
  hint?: Record<string, unknown>;
}

/** pane_info of a pane that is there (or kept after its program exited). */
export interface PaneInfo {
  type: "pane_info";
  pane: number;
  workspace: string;
  tab: number;
  focused: boolean;
  zoomed: boolean;
  cols: number;
  rows: number;
  cursor: { x: number; y: number };
  title: string;
  label: string;
  command: string[];
  argv: string[];
  cwd: string;
  start_cwd: string;
  pid: number;
  foreground: { pid: number; argv: string[] } | null;
  scrollback: number;
  started_at: number;
  last_output_at: number;
  exited: boolean;
  exit_code: number | null;
  signal?: string | null;
}

/** A row of approval_list (`ws inbox`); `ws inbox -H …` adds the host it came from. */
export type ApprovalRow = ReturnType<ApprovalService["view"]> & { host?: string };

/** A row of agent_queue_list (`ws agent queue`); where its pane is, while it is there. */
export interface QueuedRow {
  id: number;
  pane: number;
  position: number;
  when: When;
  text: string;
  queued_ms: number;
  workspace?: string;
  tab?: number;
  tab_name?: string;
}

/** The two kinds of node in a layout tree (layout_export's \`root\`), for a test that walks one it knows. */
export type SplitNode = Extract<TreeNode, { type: "split" }>;
export type PaneNode = Extract<TreeNode, { type: "pane" }>;

/** Each message's reply when it succeeds. */
export interface Replies {
  hello: {
    type: "hello";
    protocol: number;
    min_protocol: number;
    legacy_reply_version: number;
    server_version: string;
    build: string;
    pid: number;
    boot_id: string;
    started_at: number;
    seq: number;
  };
  describe: { type: "catalogue" } & Omit<ReturnType<typeof catalogue>, "messages"> & { messages: MessageDoc[] };
  pane_list: { type: "pane_list"; panes: PaneListing[] };
  workspace_list: { type: "workspaces"; workspaces: WorkspaceInfo[] };
  pane_read: { type: "pane_text"; pane: number; source: string; text: string; total_lines: number; first_line: number; line_count: number };
  /** A pane that closed when its program exited answers with `pane`, `exited`, `exit_code` and `signal` only. */
  pane_info: PaneInfo;
  session_snapshot: Omit<ReturnType<typeof snapshot>, "type"> & { type: "snapshot"; client: { term: string } | null };
  /** At v6 a workstream's row carries its ship state too (`ahead`, `pushed`). */
  search: { type: "search_result"; matches: { pane: number; line: number; row: number; text: string }[]; truncated: boolean };
  dashboard: { type: "dashboard" } & Omit<Dashboard, "workstreams"> & { workstreams: DashboardWorkstream[] };
  /** `ws inbox -H a -H b` (several hosts) adds `hosts`, each with whether it answered. */
  approval_list: { type: "approvals"; approvals: ApprovalRow[]; hosts?: { host: string; ok: boolean; error?: string }[] };
  agent_queue_list: { type: "agent_queue"; prompts: QueuedRow[] };
  agent_list: { type: "agent_list"; agents: Dashboard["agents"] };
  checkpoint_list: { type: "checkpoints"; workstream: string; checkpoints: Checkpoint[] };
  fan_status: { type: "fan_status"; fan: string; template: string; base: string; prompt: string; candidates: FanRow[] };
  tab_new: { type: "pane"; pane: number };
  split: { type: "pane"; pane: number };
  pane_respawn: { type: "pane"; pane: number };
  layout_export: Omit<ReturnType<typeof layoutReply>, "type"> & { type: "layout" };
  layout_apply: Omit<ReturnType<typeof layoutReply>, "type"> & { type: "layout" };
  pane_resize: Omit<ReturnType<typeof layoutReply>, "type"> & { type: "layout"; changed: boolean };
  new_workstream: { type: "pane"; pane: number; workspace: string; tab: number; dir: string; branch: string };
  fan_start: { type: "fan_started"; fan: string; base: string; candidates: { k: number; workstream: string; branch: string; dir: string; pane: number; workspace: string; tab: number }[] };
  fan_compare: { type: "pane"; pane: number; workspace: string; tab: number; tool: string; candidates: { k: number; workstream: string; tree: string; files: number; added: number; removed: number; paths: string[] }[] };
  session_restore: { type: "session_restored"; workspaces: number; saved: number; tabs: number; panes: Record<string, number>; saved_at: string; skipped: string[]; kept?: string };
  /** The fields each condition sets (docs/protocol-reference.md, wait_for). */
  wait_for: {
    type: "wait_result";
    condition: string;
    elapsed_ms: number;
    pane?: number;
    match?: string;
    groups?: (string | null)[];
    line?: number;
    exit_code?: number | null;
    command?: string;
    signal?: string | null;
    closed?: boolean;
    idle_ms?: number;
    workspace?: string;
    status?: string;
  };
}

interface Entries {
  hello: typeof hello;
  describe: typeof describe;
  pane_list: typeof pane_list;
  workspace_list: typeof workspace_list;
  pane_read: typeof pane_read;
  pane_info: typeof pane_info;
  session_snapshot: typeof session_snapshot;
  dashboard: typeof dashboard;
  search: typeof search;
  approval_list: typeof approval_list;
  agent_queue_list: typeof agent_queue_list;
  agent_list: typeof agent_list;
  checkpoint_list: typeof checkpoint_list;
  fan_status: typeof fan_status;
  tab_new: typeof tab_new;
  split: typeof split;
  pane_respawn: typeof pane_respawn;
  layout_export: typeof layout_export;
  layout_apply: typeof layout_apply;
  pane_resize: typeof pane_resize;
  new_workstream: typeof new_workstream;
  fan_start: typeof fan_start;
  fan_compare: typeof fan_compare;
  session_restore: typeof session_restore;
  wait_for: typeof wait_for;
}

type FieldsOf<E> = E extends MessageEntry<infer F extends Fields> ? F : never;

/** A typed message: its fields as its registry entry declares them (defaults may be left out). */
export type Request<M extends keyof Replies> = { type: M; v?: number; id?: number | string } & Partial<Static<FieldsOf<Entries[M]>>>;

/** What `s.v6()` answers for a typed message: its reply, or a refusal (check `type`, or `code`). */
export type V6Reply<M extends keyof Replies> = Omit<Replies[M], "type"> & { type: Replies[M]["type"] | "error"; code?: ErrorCode; message?: string; hint?: Record<string, unknown> };

/** A reply read without a type of its own here (a message not named above, a legacy line, a
 * refusal of any style): its envelope typed, its other fields `unknown` until narrowed. */
export interface AnyReply {
  v?: number;
  id?: number | string;
  type: string;
  code?: string;
  message?: string;
  hint?: Record<string, unknown>;
  /** An event's name, its sequence number, and the server boot that numbered it. */
  event?: string;
  seq?: number;
  boot_id?: string;
  [field: string]: unknown;
}
