// Commands that drive the model: ws workspace …, ws tab …, ws split, ws pane ….
import { defineCommand } from "citty";
import { CliError, numberArg, paneArg, send, show } from "./common";
import { paneInfo } from "./api-cmds";

interface TabInfoOut {
  name: string;
  project?: string;
  panes: number[];
  active: boolean;
  ports?: number[];
}
interface WorkspaceOut {
  name: string;
  current: boolean;
  tabs: TabInfoOut[];
}

/** The words after `--`, which citty leaves in `_`. */
function trailing(raw: string[]): string[] {
  const i = raw.indexOf("--");
  return i >= 0 ? raw.slice(i + 1) : [];
}

const workspaceNew = defineCommand({
  meta: { name: "new", description: "Create a workspace with one shell tab, in the background" },
  args: {
    name: { type: "positional", required: true, description: "The workspace's name" },
    "exists-ok": { type: "boolean", description: "Succeed if it exists (names compared ignoring case)" },
  },
  async run({ args }) {
    show(await send("workspace_new", { name: args.name, exists_ok: !!args["exists-ok"] }));
  },
});

const workspaceList = defineCommand({
  meta: { name: "list", description: "List workspaces and their tabs" },
  async run() {
    const reply = await send("workspace_list");
    const wss = reply.workspaces as WorkspaceOut[];
    show(
      reply,
      wss
        .map((w) => `${w.current ? "*" : " "} ${w.name}\n` + w.tabs.map((t, i) => `    ${t.active ? "*" : " "}${i + 1}: ${t.name}${t.project ? ` [${t.project}]` : ""}  panes ${t.panes.join(",")}${t.ports ? `  ports ${t.ports.join(",")}` : ""}`).join("\n"))
        .join("\n"),
    );
  },
});

const workspaceClose = defineCommand({
  meta: { name: "close", description: "Close a workspace and everything in it" },
  args: { name: { type: "positional", required: true, description: "The workspace's name" } },
  async run({ args }) {
    show(await send("workspace_close", { name: args.name }));
  },
});

const workspaceFocus = defineCommand({
  meta: { name: "focus", description: "Switch the view to a workspace" },
  args: { name: { type: "positional", required: true, description: "The workspace's name" } },
  async run({ args }) {
    show(await send("workspace_focus", { name: args.name }));
  },
});

export const workspace = defineCommand({
  meta: { name: "workspace", description: "Create, list, close and focus workspaces" },
  subCommands: { new: workspaceNew, list: workspaceList, close: workspaceClose, focus: workspaceFocus },
});

const tabNew = defineCommand({
  meta: { name: "new", description: "Open a tab: ws tab new [--workspace W] [--name N] [--cwd DIR] [--focus] [-- command args…]" },
  args: {
    workspace: { type: "string", description: "Workspace (default: the one on screen)" },
    name: { type: "string", description: "The tab's name" },
    cwd: { type: "string", description: "Where the command starts (default: here)" },
    project: { type: "string", description: "Project slug to link the tab to" },
    focus: { type: "boolean", description: "Switch the view to the new tab" },
  },
  async run({ args, rawArgs }) {
    const fields: Record<string, unknown> = { cwd: args.cwd ?? process.cwd(), command: trailing(rawArgs), focus: !!args.focus };
    if (args.workspace) fields.workspace = args.workspace;
    if (args.name) fields.name = args.name;
    if (args.project) fields.project = args.project;
    const reply = await send("tab_new", fields);
    show(reply, reply.pane !== undefined ? String(reply.pane) : "");
  },
});

const tabList = defineCommand({
  meta: { name: "list", description: "List the tabs of a workspace (default: the one on screen)" },
  args: { workspace: { type: "string", description: "Workspace name" } },
  async run({ args }) {
    const reply = await send("workspace_list");
    const wss = reply.workspaces as WorkspaceOut[];
    const ws = args.workspace
      ? (wss.find((w) => w.name === args.workspace) ?? wss.find((w) => w.name.toLowerCase() === String(args.workspace).toLowerCase()))
      : wss.find((w) => w.current);
    if (!ws) throw new CliError(`no workspace "${args.workspace}" (have: ${wss.map((w) => w.name).join(", ")})`);
    show({ type: "tabs", workspace: ws.name, tabs: ws.tabs }, ws.tabs.map((t, i) => `${t.active ? "*" : " "}${i + 1}: ${t.name}  panes ${t.panes.join(",")}`).join("\n"));
  },
});

const tabClose = defineCommand({
  meta: { name: "close", description: "Close a tab by name or 1-based number" },
  args: {
    tab: { type: "positional", required: true, description: "Tab name or number" },
    workspace: { type: "string", description: "Workspace (default: the one on screen)" },
  },
  async run({ args }) {
    const fields: Record<string, unknown> = { tab: String(args.tab) };
    if (args.workspace) fields.workspace = args.workspace;
    show(await send("tab_close", fields));
  },
});

export const tab = defineCommand({
  meta: { name: "tab", description: "Open, list and close tabs" },
  subCommands: { new: tabNew, list: tabList, close: tabClose },
});

export const split = defineCommand({
  meta: { name: "split", description: "Split a pane: ws split [PANE] [--below] [--size N] [--focus] [--cwd DIR] [-- command args…]" },
  args: {
    pane: { type: "positional", required: false, description: "The pane to split (default: $WS_PANE_ID)" },
    below: { type: "boolean", description: "Put the new pane below (default: to the right)" },
    cwd: { type: "string", description: "Where the command starts (default: here)" },
    size: { type: "string", description: "The new pane's size in cells (columns right, rows below)" },
    focus: { type: "boolean", description: "Show and focus the new pane" },
  },
  async run({ args, rawArgs }) {
    const fields: Record<string, unknown> = { pane: paneArg(args.pane), right: !args.below, cwd: args.cwd ?? process.cwd(), command: trailing(rawArgs), focus: !!args.focus };
    if (args.size !== undefined) fields.size = numberArg("--size", args.size, "number of cells");
    const reply = await send("split", fields);
    show(reply, reply.pane !== undefined ? String(reply.pane) : "");
  },
});

const paneSend = defineCommand({
  meta: { name: "send", description: "Type text into a pane as a paste: ws pane send PANE TEXT [--enter]" },
  args: {
    pane: { type: "positional", required: true, description: "The pane id" },
    text: { type: "positional", required: false, description: "The text (default: empty)" },
    enter: { type: "boolean", description: "Press Enter after the text" },
  },
  async run({ args }) {
    show(await send("pane_send", { pane: paneArg(args.pane), text: String(args.text ?? ""), enter: !!args.enter }));
  },
});

const paneClose = defineCommand({
  meta: { name: "close", description: "Close a pane and stop what runs in it" },
  args: { pane: { type: "positional", required: false, description: "The pane id (default: $WS_PANE_ID)" } },
  async run({ args }) {
    show(await send("pane_close", { pane: paneArg(args.pane) }));
  },
});

const paneFocus = defineCommand({
  meta: { name: "focus", description: "Switch the view to a pane" },
  args: { pane: { type: "positional", required: true, description: "The pane id" } },
  async run({ args }) {
    show(await send("pane_focus", { pane: paneArg(args.pane) }));
  },
});

const paneRead = defineCommand({
  meta: { name: "read", description: "Print a pane's text: ws pane read PANE [--source visible|recent|recent-unwrapped] [--lines N | --start A --end B] [--styled]" },
  args: {
    pane: { type: "positional", required: false, description: "The pane id (default: $WS_PANE_ID)" },
    source: { type: "string", description: "visible (default), recent (scrollback and screen) or recent-unwrapped (soft-wrapped rows joined)" },
    lines: { type: "string", description: "Only the last N lines" },
    start: { type: "string", description: "First line of a 1-based range" },
    end: { type: "string", description: "Last line of the range" },
    styled: { type: "boolean", description: "Keep colours and attributes (ANSI)" },
    scrollback: { type: "boolean", description: "Same as --source recent" },
  },
  async run({ args }) {
    const fields: Record<string, unknown> = { pane: paneArg(args.pane), source: args.source ?? (args.scrollback ? "recent" : "visible") };
    for (const k of ["lines", "start", "end"] as const) if (args[k] !== undefined) fields[k] = numberArg(`--${k}`, args[k]);
    if (args.styled) fields.styled = true;
    const reply = await send("pane_read", fields);
    show(reply, String(reply.text ?? ""), { keepSgr: !!args.styled });
  },
});

export const pane = defineCommand({
  meta: { name: "pane", description: "Send to, read, focus and close panes" },
  subCommands: { send: paneSend, close: paneClose, focus: paneFocus, read: paneRead, info: paneInfo },
});
