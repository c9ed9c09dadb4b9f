// The registry: every protocol message this server knows, one module each. Add a message by
// writing its module and listing it here; validation, dispatch, the CLI and docs follow.
import type { MessageEntry } from "./types";
import attach from "./attach";
import open_tab from "./open_tab";
import pane_close from "./pane_close";
import pane_focus from "./pane_focus";
import pane_read from "./pane_read";
import pane_send from "./pane_send";
import project_attach from "./project_attach";
import project_renamed from "./project_renamed";
import shutdown from "./shutdown";
import shutdown_keep from "./shutdown_keep";
import split from "./split";
import tab_close from "./tab_close";
import tab_new from "./tab_new";
import workspace_close from "./workspace_close";
import workspace_focus from "./workspace_focus";
import workspace_list from "./workspace_list";
import workspace_new from "./workspace_new";
import report from "./report";
import agent_send from "./agent_send";
import agent_queue_list from "./agent_queue_list";
import agent_list from "./agent_list";
import agent_queue_cancel from "./agent_queue_cancel";
import dashboard from "./dashboard";
import session_save from "./session_save";
import session_restore from "./session_restore";
import session_discard from "./session_discard";
import run_command from "./run_command";
import newWorkstream from "./new_workstream";
import workstreamDone from "./workstream_done";
import workstream_list from "./workstream_list";
import openReview from "./open_review";
import open from "./open";
import handoff from "./handoff";
import hello from "./hello";
import describe from "./describe";
import pane_info from "./pane_info";
import wait_for from "./wait_for";
import subscribe from "./subscribe";
import session_snapshot from "./session_snapshot";
import layout_export from "./layout_export";
import layout_apply from "./layout_apply";
import pane_resize from "./pane_resize";
import pane_swap from "./pane_swap";
import pane_zoom from "./pane_zoom";
import pane_send_keys from "./pane_send_keys";
import notify from "./notify";
import search from "./search";
import run from "./run";
import pane_respawn from "./pane_respawn";
import pane_rename from "./pane_rename";
import pane_border from "./pane_border";
import tab_rename from "./tab_rename";
import workspace_rename from "./workspace_rename";
import pane_move from "./pane_move";
import pane_list from "./pane_list";
import project_handoff from "./project_handoff";
import open_file from "./open_file";
import popup from "./popup";
import layout_select from "./layout_select";
import checkpoint_save from "./checkpoint_save";
import checkpoint_list from "./checkpoint_list";
import checkpoint_diff from "./checkpoint_diff";
import checkpoint_restore from "./checkpoint_restore";
import approval_request from "./approval_request";
import approval_list from "./approval_list";
import approval_answer from "./approval_answer";
import ask from "./ask";
import question_answer from "./question_answer";
import config_reload from "./config_reload";
import attach_clients from "./attach_clients";
import attach_client_detach from "./attach_client_detach";
import fan_start from "./fan_start";
import fan_status from "./fan_status";
import fan_compare from "./fan_compare";
import fan_keep from "./fan_keep";
import ship from "./ship";
import pane_grants from "./pane_grants";
import pane_grant from "./pane_grant";
import restrict_connection from "./restrict_connection";
import shim_buffer_set from "./shim_buffer_set";
import shim_buffer_get from "./shim_buffer_get";
import shim_buffer_list from "./shim_buffer_list";
import shim_buffer_delete from "./shim_buffer_delete";
import shim_buffer_rename from "./shim_buffer_rename";
import shim_option_set from "./shim_option_set";
import shim_option_list from "./shim_option_list";

export const MESSAGES: MessageEntry[] = [
  report,
  attach,
  shutdown,
  open_tab,
  project_attach,
  handoff,
  newWorkstream,
  open,
  split,
  workspace_new,
  workspace_list,
  tab_new,
  project_renamed,
  pane_send,
  pane_close,
  tab_close,
  workspace_close,
  workstreamDone,
  workstream_list,
  shutdown_keep,
  openReview,
  agent_send,
  agent_queue_list,
  agent_list,
  agent_queue_cancel,
  workspace_focus,
  pane_focus,
  dashboard,
  run_command,
  pane_read,
  session_save,
  session_restore,
  session_discard,
  // v6 control plane
  hello,
  describe,
  pane_info,
  wait_for,
  subscribe,
  session_snapshot,
  layout_export,
  layout_apply,
  pane_resize,
  pane_swap,
  pane_zoom,
  pane_send_keys,
  notify,
  search,
  run,
  // panes for scripts: respawn, names, borders, moves, lists
  pane_respawn,
  pane_rename,
  pane_border,
  tab_rename,
  workspace_rename,
  pane_move,
  pane_list,
  // projects, and files opened in Neovim
  project_handoff,
  open_file,
  // what the tmux shim's display-popup and select-layout need
  popup,
  layout_select,
  // checkpoints per turn
  checkpoint_save,
  checkpoint_list,
  checkpoint_diff,
  checkpoint_restore,
  // fan-out
  fan_start,
  fan_status,
  fan_compare,
  fan_keep,
  ship,
  pane_grants,
  pane_grant,
  restrict_connection,
  // the approvals inbox
  approval_request,
  approval_list,
  approval_answer,
  // questions for the person (ws ask, ws answer)
  ask,
  question_answer,
  // reload keys.toml in place
  config_reload,
  // more than one attached client
  attach_clients,
  attach_client_detach,
  // the tmux shim's buffers and options, kept by the daemon
  shim_buffer_set,
  shim_buffer_get,
  shim_buffer_list,
  shim_buffer_delete,
  shim_buffer_rename,
  shim_option_set,
  shim_option_list,
];

export const REGISTRY = new Map<string, MessageEntry>(MESSAGES.map((m) => [m.type, m]));
