// Errors a handler reports to the client. `message` is the human text every protocol version
// carries; v6 replies add the stable `code` and the `hint` that names the fix.

export interface ErrorHint {
  /** The field that was wrong. */
  param?: string;
  /** The values or fields it accepts. */
  accepted?: unknown[];
  /** The closest match to what was sent. */
  did_you_mean?: string | number;
  /** The names or ids that do exist. */
  available?: unknown[];
  /** A command to run next. */
  command?: string;
  /** The limit that was reached (limit_exceeded, resource_exhausted). */
  limit?: number;
  /** pane_exited: how the pane's program ended (null when a signal ended it, or unknown). */
  exit_code?: number | null;
  signal?: string | null;
  /** The panes the open-file limit allows (resource_exhausted). */
  panes?: number;
  /** forbidden: the grant the message needs (report, self, workspace, control or person). */
  grant?: string;
}

/** Every error code a v6 reply can carry, with what it means. Stable: scripts branch on them. */
export const ERROR_CODES = {
  invalid_request: "The line is not a message: not JSON, not an object, or a bad envelope (`v`, `type`, `id`)",
  unknown_type: "No message has this `type`; `hint.did_you_mean` names the closest",
  invalid_params: "A field is unknown, missing, of the wrong type, or not an accepted value; `hint.param` names it",
  version_unsupported: "The line's `v` is outside the range this server speaks, or the message needs a newer `v` than it was sent at",
  line_too_long: "The line is over 1 MiB; the connection is closed",
  workspace_not_found: "No workspace by that name; `hint.available` lists them",
  workspace_exists: "A workspace with that name (ignoring case) exists and `exists_ok` was not set",
  tab_not_found: "No such tab; `hint.available` lists them",
  pane_not_found: "No such pane; `hint.available` lists the pane ids",
  pane_exited: "The pane's program has exited (before the request, or while it waited), so what it waited for can no longer happen; `hint.exit_code` and `hint.signal` say how it ended where ws remembers",
  cross_tab: "The panes are in different tabs; layouts change within one tab",
  invalid_move: "pane_move refused a move that makes no sense: beside itself, or a pane alone in its tab into a new tab of the same workspace; the message says which",
  last_pane: "Refused: it would close the last pane, tab or workspace in ws",
  no_agent: "No agent reports from that tab",
  not_a_workstream: "That is not a workstream",
  unknown_command: "No keymap command by that name",
  unsupported: "This build does not have the feature the message needs",
  session_unreadable: "The saved session could not be read (truncated, corrupt or from a newer ws); it was left aside",
  timeout: "A wait ran out of time, or the server did not answer a request in time",
  regex_timeout: "A pattern (wait_for, search) took longer than its time budget to match a pane's text, and the request ended; simplify the pattern",
  busy: "The server had no memory budget for a large request within 2 s; nothing was done, retry",
  program_not_found: "The program to start is not on the pane's PATH or not an executable file; the message names it. Nothing was changed",
  cwd_not_found: "The directory to start in does not exist or is not a directory; the message names it. Nothing was changed",
  box_unavailable: "The pane was to run in a box, and the sandbox tool is missing or can't run here (bubblewrap on Linux, user namespaces); the message names what to install. Nothing was started, boxed or not. `ws doctor` says whether boxes work",
  box_refused: "The pane was to run in a box, and the box can't be made safely as asked: its directory is your home or above it, or holds what a box hides. Nothing was started",
  spawn_failed: "The system refused to start the program; the message says why. Nothing was changed",
  limit_exceeded: "The request would pass one of ws's limits (docs/limits.md); `hint.limit` gives it. Nothing was changed",
  resource_exhausted: "The system has no room for it: the server's open-file limit (RLIMIT_NOFILE; `hint.limit` gives it) or processes ran out. Nothing was changed; close panes or raise the limit",
  too_many_connections: "The server already serves its maximum of connections (this one is closed), or this connection has one of the slots kept for short requests and asked for a stream, attach or wait",
  internal: "The server failed; the message says how. Please report it",
  no_shell_integration: "The pane's program sends no shell-integration marks (OSC 133), so ws can't tell where a command starts and ends; the bash, zsh and fish that ws starts send them (docs/shell-integration.md)",
  not_at_prompt: "The pane's shell is running a command, or has text typed at its prompt; nothing was typed",
  command_not_run: "The shell took the typed line but ran no command (a syntax error, say) and showed its prompt again; the pane shows why",
  agent_blocked: "The agent waits for an answer to a prompt of its own (status blocked); typing would answer it, so nothing was typed",
  not_a_repo: "The directory a workstream's repo was to come from is not in a git repository; the message says where ws looked",
  branch_exists: "A workstream's new branch exists already; check it out with `branch` (ws new --branch) or pick another name",
  branch_not_found: "The branch to check out (or the template's `base`) is in neither the repo nor its remote",
  path_taken: "The workstream's worktree directory exists already; pick another name or remove it",
  workstream_exists: "A workstream by that name is open; ws done it first or pick another name",
  template_not_found: "No workstream template by that name; `hint.available` lists them (ws templates list)",
  template_invalid: "A workstream template has a mistake; the message names its file and line",
  git_failed: "git (or gh) failed; the message says what it said. Nothing was changed",
  setup_failed: "A template's setup command failed; the message gives its output. The worktree and its new branch were removed",
  path_escapes: "A file to copy into a new worktree (a template's `copy`, the repo's .worktreeinclude) is, or lies under, a symbolic link that leads out of the main checkout or the new worktree; the message names it. The worktree and its new branch were removed",
  uncommitted_changes: "ws done refused: the worktree has uncommitted changes (commit and push them, or force)",
  unpushed_commits: "ws done refused: the branch has commits on no remote branch (push them, or force)",
  checkpoint_not_found: "The workstream has no checkpoint by that number; ws checkpoint list shows those it has",
  agent_working: "Refused while the workstream's agent is working (mid-turn): wait for it, or force",
  nvim_failed: "Neovim answered an error (or did not answer in time) when asked to open the file; the message has its words",
  project_not_found: "No project by that slug in the server's projects directory ($XDG_DATA_HOME/ws/projects); `hint.available` lists them. Nothing was changed",
  pane_is_popup: "The pane is a popup, floating over its tab outside the layout: it can't be split, moved, swapped or zoomed",
  popup_open: "The tab shows a popup already; it closes with its program, or with Esc or C-c",
  client_not_found: "No attached client with that id (it detached, or never was); `hint.available` lists the attached ones (ws client list)",
  no_client: "No terminal is attached to the server, so nobody would see it (a popup needs one)",
  question_not_found: "No question with that id is waiting: it was answered, its asker gave up or went, or it was asked before the server restarted; `hint.available` lists the waiting ids",
  approval_not_found: "No approval with that id is waiting: it was answered (in ws or the agent's own dialog), its hook gave up, or it was made before the server restarted; `hint.available` lists the waiting ids",
  prompt_not_shown: "The inbox item answers a permission prompt ws saw on an agent's screen, and that pane no longer shows that prompt (it was answered there, or the screen changed): nothing was typed, and the item is gone",
  buffer_not_found: "No tmux shim paste buffer by that name (or none at all, or it changed while it was read in pieces); `hint.available` lists them",
  prompt_not_found: "No prompt with that id is queued: it was typed already, cancelled, or its pane closed; `hint.available` lists the queued ids (ws agent queue)",
  forbidden: "Refused because of who asked: the caller's grants (its pane's, or its connection's after restrict_connection) don't allow the message or the pane, tab or workspace it names, and `hint.grant` names the grant needed; or a person verb (approve, deny, raising grants, attach, config reload, interface commands, quitting, discarding the session) came on a pane's socket or from a process inside a ws pane, or from one gone before the server could tell; send it from the attached client or a terminal outside ws",
  file_refused: "A file ws was to read is not a regular file (a FIFO, a device, a directory) or is over its size limit, so ws did not wait on it; the message names it. Nothing was changed",
  usage: "(CLI only) The command line has a mistake: an unknown command or flag, a missing or malformed argument; exit status 2",
  no_server: "(CLI only) No ws server answers at the socket the command chose; start one with ws start",
  no_answer: "(CLI only) The server took the request but did not answer within the CLI's deadline (10 s, `--timeout MS`), or, during a wait with no `--timeout`, stopped answering a `hello` for 10 s: it is stopped or stuck; `ws doctor` says which",
  ship_refused: "(CLI only) ws ship refused before changing anything: a detached HEAD, nothing to commit or push, changes but no -m, no remote (--push, --pr) or no gh (--pr); the message says what to do",
  client_failed: "(CLI only) The command failed on the client's side (a file it reads, the connection to the server); the message says why",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class WsError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode = "invalid_request",
    readonly hint?: ErrorHint,
  ) {
    super(message);
  }
}

/** `(have: a, b)` — errors name what exists so the fix is obvious. */
export function have(names: (string | number)[]): string {
  return names.length ? ` (have: ${names.join(", ")})` : " (have: none)";
}

/** Edit distance (optimal string alignment: a swap of two neighbours counts as one), ignoring case. */
export function distance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/** The candidate closest to `word`, if it is close enough to be a likely typo. */
export function closest(word: string, candidates: readonly (string | number)[]): string | number | undefined {
  let best: { c: string | number; d: number; gap: number } | undefined;
  const w = word.toLowerCase();
  for (const c of candidates) {
    const s = String(c);
    const l = s.toLowerCase();
    let d: number;
    if (l.startsWith(w) || w.startsWith(l)) d = l === w ? 0 : 1;
    else {
      // The distance is at least the difference in length: past the limit it can't be a typo,
      // and computing it for a 100 KB word would stall the server for seconds.
      const limit = Math.max(1, Math.floor(Math.max(word.length, s.length) / 3));
      if (Math.abs(word.length - s.length) > limit) continue;
      d = distance(word, s);
    }
    // On a tie the nearer length wins: "prox" means "proxy" rather than "pr".
    const gap = Math.abs(l.length - w.length);
    if (!best || d < best.d || (d === best.d && gap < best.gap)) best = { c, d, gap };
  }
  if (!best) return undefined;
  const limit = Math.max(1, Math.floor(Math.max(word.length, String(best.c).length) / 3));
  return best.d <= limit ? best.c : undefined;
}
