// The replies tests read: each the reply its registry entry declares (`replyFields`, which the
// handler's own reply must match), and its request's fields `Static` of the entry's `fields`. `s.v6()` and
// `s.call()` in test/harness.ts return these for the messages named here.
import type { EntryReply, MessageEntry } from "../src/messages/types";
import type { ErrorCode } from "../src/protocol/errors";
import type { Fields, Static } from "../src/protocol/schema";
import type { TreeNode } from "../src/model/tree";
import type dashboard from "../src/messages/dashboard";
import type describe from "../src/messages/describe";
import type search from "../src/messages/search";
import type hello from "../src/messages/hello";
import type pane_info from "../src/messages/pane_info";
import type pane_list from "../src/messages/pane_list";
import type pane_read from "../src/messages/pane_read";
import type session_snapshot from "../src/messages/session_snapshot";
import type workspace_list from "../src/messages/workspace_list";
import type approval_list from "../src/messages/approval_list";
import type agent_queue_list from "../src/messages/agent_queue_list";
import type agent_list from "../src/messages/agent_list";
import type checkpoint_list from "../src/messages/checkpoint_list";
import type fan_status from "../src/messages/fan_status";
import type tab_new from "../src/messages/tab_new";
import type split from "../src/messages/split";
import type pane_respawn from "../src/messages/pane_respawn";
import type layout_export from "../src/messages/layout_export";
import type layout_apply from "../src/messages/layout_apply";
import type new_workstream from "../src/messages/new_workstream";
import type fan_start from "../src/messages/fan_start";
import type fan_compare from "../src/messages/fan_compare";
import type pane_resize from "../src/messages/pane_resize";
import type session_restore from "../src/messages/session_restore";
import type wait_for from "../src/messages/wait_for";

/** A refusal at v6 (docs/protocol-reference.md, Errors). */
export interface ErrorReply {
  v?: number;
  id?: number | string;
  type: "error";
  code: ErrorCode;
  message: string;
  hint?: Record<string, unknown>;
}

/** A row of approval_list (`ws inbox`); `ws inbox -H …` adds the host it came from. */
export type ApprovalRow = EntryReply<typeof approval_list>["approvals"][number] & { host?: string };

/** The two kinds of node in a layout tree (layout_export's \`root\`), for a test that walks one it knows. */
export type SplitNode = Extract<TreeNode, { type: "split" }>;
export type PaneNode = Extract<TreeNode, { type: "pane" }>;

/** Each message's reply when it succeeds: the one its registry entry declares. */
export type Replies = Omit<Registered, "approval_list"> & {
  /** `ws inbox -H a -H b` (several hosts) adds `hosts`, each with whether it answered, and each row's host. */
  approval_list: Omit<Registered["approval_list"], "approvals"> & { approvals: ApprovalRow[]; hosts?: { host: string; ok: boolean; error?: string }[] };
};

type Registered = { [M in keyof Entries]: EntryReply<Entries[M]> };

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
