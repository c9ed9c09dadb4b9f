// The names a registry entry's `cli.view` and `cli.run` may give: src/cli/views.ts and
// src/cli/handlers.ts define exactly these (their tables are typed by them), so a misspelt name or
// a view without its code is a compile error. Kept here so the registry needs no CLI import. Named
// in camelCase: snake_case names are the protocol's (messages, replies, events).

export const VIEW_NAMES = [
  "pane", "text", "tree", "workspaces", "agentSent", "checkpointSaved", "checkpoints",
  "checkpointDiff", "checkpointRestored", "search", "inbox", "approvalAnswered",
  "configReloaded", "notified", "saved", "wait", "paneInfo", "dashboard", "fanStarted", "fanStatus",
  "fanKept", "agentQueue", "promptCancelled", "grants", "workstreams", "agentList", "clients",
  "answer", "questionAnswered",
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

export const RUN_NAMES = [
  "start", "server", "killServer", "doctor", "restart", "sessionRestore", "sessionDiscard",
  "sessionInfo", "describe", "call", "events", "tabList", "attach", "keys", "hooks", "report",
  "agentSend", "approvalHook", "run", "popup", "paneList", "proxy", "remoteInstall", "tmuxShim", "tmuxCommand",
  "newWorkstream", "done", "checkpoint", "review", "prComments", "ship", "templatesList",
  "templatesShow", "diff", "reviewNote", "projectNew", "projectList", "projectShow", "projectAttach", "projectRename",
  "projectHandoff", "open", "selfUpdate", "completion", "batch", "box",
  "help", "version", "importTmux", "mcp", "mcpInstall", "web", "webTokens", "pushTest",
] as const;
export type RunName = (typeof RUN_NAMES)[number];
