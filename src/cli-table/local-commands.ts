// The CLI's commands that are not one message each (start, doctor, hooks, …), declared in the same
// shape as the registry's (spec.ts); their handlers (src/cli/handlers.ts) load only when they run.
import { GRANT_LEVELS } from "../protocol/grants";
import type { Command, Param } from "./spec";

const flag = (name: string, type: Param["type"], description: string, field = name.replace(/-/g, "_")): Param => ({ field, flag: name, type, description });
const arg = (field: string, description: string, required = false): Param => ({ field, type: "string", description, ...(required ? { required } : {}) });
const COMMAND_REST = { field: "command", description: "The program and its arguments for the first pane (default: your shell)" };

export const LOCAL_COMMANDS: Command[] = [
  {
    path: "start",
    summary: "Start the ws server in the background (returns once it answers); says what it restored and what runs again",
    params: [flag("fresh", "boolean", "Start clean, without restoring the saved session (the new server's first save replaces it)")],
    rest: COMMAND_REST,
    run: "start",
  },
  {
    path: "server",
    summary: "Run the ws server in the foreground, logging to stderr",
    params: [flag("socket-path", "string", "Socket path (normally derived from -L / --local)"), flag("fresh", "boolean", "Start clean, without restoring the saved session")],
    rest: COMMAND_REST,
    run: "server",
  },
  { path: "kill-server", summary: "Quit the server and close every pane (--keep saves the session first)", params: [flag("keep", "boolean", "Save the session so the next server restores it")], run: "killServer" },
  {
    path: "batch",
    summary: "Run ws commands from FILE (default: stdin), one per line, as tmux's source-file does: shell quoting and # comments, no expansion; one process and connection; stops at the first that fails, naming FILE:LINE",
    params: [arg("file", "The file of command lines (- or none: stdin)"), flag("keep-going", "boolean", "Run every line, reporting each failure; exit with the first failure's status")],
    run: "batch",
  },
  {
    path: "box",
    summary: "Run a command in a box here: this checkout read-write, your secrets and ws's other sockets hidden (docs/security.md#boxes)",
    params: [flag("network", "boolean", "false: no network in the box")],
    rest: { field: "command", description: "The program and its arguments" },
    run: "box",
  },
  { path: "doctor", summary: "Check sockets, their modes, the server's build and saved sessions", params: [flag("fix", "boolean", "Remove stale sockets")], run: "doctor" },
  {
    path: "restart",
    summary: "Save the session, quit the server and start it again (new build, same layout; agents resumed)",
    params: [flag("force", "boolean", "Restart even while agents are working (without a terminal to ask, it refuses then)")],
    run: "restart",
  },
  { path: "session restore", summary: "Rebuild the saved session: starts a server from it, or adds it to the running one", params: [], run: "sessionRestore" },
  {
    path: "session discard",
    summary: "Delete the saved session so the next server starts clean",
    params: [flag("unreadable", "boolean", "Delete instead this server's saves that could not be loaded and were moved aside")],
    run: "sessionDiscard",
  },
  { path: "session info", summary: "Where the save is, when it was made and what it holds", params: [], run: "sessionInfo" },
  {
    path: "pane list",
    summary: "List every pane: where it is, its label, what runs in it, its cwd and size",
    params: [
      flag("workspace", "string", "Only this workspace's panes"),
      flag("format", "string", "One line per pane with each {key} filled in, e.g. '{pane} {command}' (keys: the fields of pane_list's rows)"),
    ],
    run: "paneList",
  },
  { path: "tab list", summary: "List the tabs of a workspace", params: [flag("workspace", "string", "The workspace (default: the one on screen)")], run: "tabList" },
  {
    path: "help",
    summary: "Help: every command, or one command's usage, arguments and flags (as ws COMMAND --help)",
    params: [
      { field: "command", type: "string", many: true, description: "The command's words (ws help pane send)" },
      flag("man", "boolean", "Print the man page instead (roff, what the installers put in share/man/man1/ws.1)"),
    ],
    run: "help",
  },
  { path: "version", summary: "Print ws's version (package.json's) and build id (as ws --version)", params: [], run: "version" },
  {
    path: "attach",
    summary: "Attach this terminal to the ws server (-L NAME for a named one), beside any other attached terminal",
    params: [flag("d", "boolean", "Detach every other attached terminal, as tmux's attach -d", "detach_others")],
    run: "attach",
  },
  { path: "keys", summary: "Key bindings: every command with its keys", params: [flag("list", "boolean", "List command names, their keys and what they do (the default)")], run: "keys" },
  ...(["install", "uninstall"] as const).map(
    (action): Command => ({
      path: `hooks ${action}`,
      summary: action === "install" ? "Add ws's hooks to an agent's settings so it reports its status" : "Remove exactly what install added",
      params: [
        { ...arg("target", "claude or codex"), accepted: ["claude", "codex"] },
        flag("dry-run", "boolean", "Print the change, write nothing"),
        flag("file", "string", "The settings file (default: ~/.claude/settings.json or ~/.codex/config.toml)"),
      ],
      fixed: { action },
      run: "hooks",
    }),
  ),
  {
    path: "mcp",
    summary: "Serve ws to an agent as MCP tools over stdio (what `ws mcp install` has the agent run); each call acts with this pane's grants, never more",
    params: [{ ...flag("grants", "string", "Act with at most these grants (report, self, workspace, control), below the pane's own"), accepted: GRANT_LEVELS }],
    run: "mcp",
  },
  ...(["install", "uninstall"] as const).map(
    (action): Command => ({
      path: `mcp ${action}`,
      summary: action === "install" ? "Add ws mcp to an agent's MCP servers (as \"ws\")" : "Remove exactly what mcp install added",
      params: [
        { ...arg("target", "claude, codex or gemini", true), accepted: ["claude", "codex", "gemini"] },
        flag("dry-run", "boolean", "Print the change, write nothing"),
        flag("file", "string", "The config file (default: ~/.claude.json, ~/.codex/config.toml or ~/.gemini/settings.json)"),
      ],
      fixed: { action },
      run: "mcpInstall",
    }),
  ),
  {
    path: "push test",
    summary: "Send a test notification to every destination keys.toml's [push] names (the subscribed phones, push.command, push.url) and say how each went",
    params: [],
    run: "pushTest",
  },
  {
    path: "report",
    summary: "Forward an agent hook event (JSON on stdin) to this pane's ws; what agent hooks run",
    params: [arg("event", "The hook's event name"), flag("agent", "string", "claude, codex, …")],
    rest: { field: "chain", description: "A notify command ws stands in front of, run with the same payload" },
    run: "report",
    ownArgs: true,
  },
  {
    path: "approval-hook",
    summary: "An agent's PermissionRequest hook: ask in ws's inbox, wait, print the answer for the agent (silence: its own dialog decides)",
    params: [flag("agent", "string", "claude, codex, …"), flag("timeout", "integer", "How long to wait for an answer in ws, in ms (default 300000, 60000 for codex, or $WS_APPROVAL_TIMEOUT_MS)")],
    run: "approvalHook",
    ownArgs: true,
  },
  {
    path: "proxy",
    summary: "Bridge stdio to this machine's ws server: what `ws -H HOST` runs on HOST through ssh",
    params: [
      flag("start", "boolean", "Start the server first when none runs"),
      flag("exec", "boolean", "Run one command line (a JSON array on stdin) here instead"),
    ],
    run: "proxy",
  },
  { path: "remote install", summary: "Copy this ws to HOST's ~/.local/bin/ws (same OS and CPU only)", params: [arg("host", "The ssh host (as you would give ssh)", true)], run: "remoteInstall" },
  {
    path: "call",
    summary: "Send any message at the version that introduced it and print the reply",
    params: [arg("type", "The message type", true), arg("fields", "Its fields, as a JSON object")],
    run: "call",
  },
  {
    path: "review",
    summary: "Review a PR or branch: its worktree and pr.md (in its git directory), then a review tab with its agent (--fresh starts it over)",
    params: [
      arg("target", "The PR's number, or a branch", true),
      flag("fresh", "boolean", "Replace the open review tab, so the agent starts over"),
      flag("template", "string", "The template that lays out the tab (default: review)"),
      flag("no-focus", "boolean", "Open it in the background"),
    ],
    run: "review",
  },
  {
    path: "pr comments",
    summary: "Send the PR's unresolved review comments (from gh) to the agent in this tab",
    params: [{ ...arg("pr", "The PR's number (default: the review's, or gh's for this branch)"), type: "integer" }, { ...flag("pane", "integer", "A pane in the agent's tab"), default: "$WS_PANE_ID" }],
    run: "prComments",
  },
  {
    path: "self-update",
    summary: "Replace this ws with a release's binary over https, checked against its signed SHA256SUMS (docs/install.md)",
    params: [
      flag("to", "string", "The version to install (default: the latest; an older one only when named here)"),
      flag("from", "string", "The release directory's https URL (default: where this ws was released)"),
      flag("force", "boolean", "Replace a ws built from source (bun run build) too"),
    ],
    run: "selfUpdate",
  },
  {
    path: "completion",
    summary: "Print the shell completion script for bash, zsh or fish (docs/install.md)",
    params: [
      { ...arg("shell", "The shell"), accepted: ["bash", "zsh", "fish"] },
      flag("values", "string", "Print instead the values offered for KIND (pane, workspace, tab, tab-id, template, project, host), one a line; nothing when no server answers"),
      flag("install", "string", "Write the scripts of all three shells where each looks under PREFIX/share (bash-completion, zsh's site-functions, fish's vendor_completions.d), as the installers do, and say where"),
    ],
    run: "completion",
  },
  {
    path: "web",
    summary: "Serve this session to a browser (docs/web.md): a terminal page attached as one more client, and a phone page with the agents, the inbox and the queue; prints a one-time login URL",
    params: [
      flag("listen", "string", "ADDR:PORT to listen on (default 127.0.0.1:7681; port 0: any free one); an address other than loopback needs --tls-cert and --tls-key, or --insecure"),
      flag("tls-cert", "string", "The TLS certificate (PEM) to serve https with"),
      flag("tls-key", "string", "Its private key (PEM)"),
      flag("insecure", "boolean", "Serve plain http on an address other than loopback (anyone on the way can read and type into the session)"),
    ],
    run: "web",
  },
  {
    path: "web tokens",
    summary: "List the browsers logged in to ws web, revoke them, or print another one-time login URL",
    params: [flag("revoke", "string", "End this session (its id, as listed), or all of them and every unused login URL"), flag("new", "boolean", "Print another one-time login URL for the running ws web")],
    run: "webTokens",
  },
  {
    path: "review note",
    summary: "Queue a review note for the workstream's agent: typed as its next prompt (through the prompt queue, as ws agent send --when idle)",
    params: [arg("text", "The note", true), flag("name", "string", "The workstream (default: $WS_WORKSTREAM, else the worktree this runs in)")],
    run: "reviewNote",
  },
  {
    path: "diff",
    summary: "A workstream's changes against its base (where its branch left the remote's default branch): committed, uncommitted and untracked alike (default: the workstream this runs in)",
    params: [arg("name", "The workstream (default: $WS_WORKSTREAM, else the worktree this runs in)")],
    run: "diff",
  },
  {
    path: "config import-tmux",
    summary: "Write keys.toml from a tmux.conf: the prefix, key bindings, mouse, mode-keys, history-limit, base-index, status and its colours; lists what it left out",
    params: [
      arg("file", "The tmux configuration (default: ~/.tmux.conf, else $XDG_CONFIG_HOME/tmux/tmux.conf)"),
      flag("print", "boolean", "Print the keys.toml on stdout instead of writing it"),
      flag("force", "boolean", "Replace a keys.toml that is there (without it, ws asks on a terminal and refuses otherwise)"),
    ],
    run: "importTmux",
  },
  { path: "templates list", summary: "List workstream templates: yours and the built-ins", params: [], run: "templatesList" },
  { path: "templates show", summary: "Print a template's TOML (a built-in makes a starting point for your own)", params: [arg("name", "The template", true)], run: "templatesShow" },
  {
    path: "tmux",
    summary: "Run a tmux command line on this ws server (ws tmux split-window -h; ws tmux set -g mouse off), through the tmux shim's parser, as `tmux` in a shimmed pane would",
    params: [],
    rest: { field: "words", description: "tmux's command and its arguments; `\\;` separates commands" },
    run: "tmuxCommand",
    ownArgs: true,
  },
  {
    path: "tmux-shim",
    summary: "Run a command (default: your shell) where `tmux` is ws: tools that drive tmux get ws panes",
    params: [],
    rest: { field: "command", description: "The program and its arguments (default: your shell)" },
    run: "tmuxShim",
  },
  {
    path: "project new",
    summary: "Make a project: a slug with a name, a repo and notes ($XDG_DATA_HOME/ws/projects/SLUG)",
    params: [arg("slug", "The project's slug: letters, digits, . _ -", true), flag("name", "string", "Its name (default: the slug)"), flag("repo", "string", "Its main clone"), flag("notes", "string", "Notes")],
    run: "projectNew",
  },
  { path: "project list", summary: "List the projects: slug, name, repo", params: [], run: "projectList" },
  { path: "project show", summary: "Show a project: name, repo, notes", params: [arg("slug", "The project's slug", true)], run: "projectShow" },
  {
    path: "project rename",
    summary: "Give a project a new slug: moves it on disk, then relinks its tabs (project_renamed)",
    params: [arg("old", "The project's slug now", true), { ...flag("slug", "string", "The new slug"), required: true }],
    run: "projectRename",
  },
];
