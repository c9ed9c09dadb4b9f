// The commands that do more than send one message and print the reply, by the name the command
// table gives them. Each module loads only when its command runs.
import type { Command } from "../cli-table/spec";
import type { RunName } from "../messages/cli-names";
import { type Found, UsageError } from "../cli-table/parse";

export interface HandlerInput {
  command: Command;
  /** The parsed fields, with the CLI's defaults applied. */
  fields: Record<string, unknown>;
  /** The words after the command's path, as given (ws report parses its own). */
  words: string[];
  /** Run another whole command line in this process (`ws proxy --exec`). Passed in rather than
   * imported: a module that imports cli/index moves the CLI out of the binary's entry chunk, and a
   * call then loads one more chunk. */
  runCli: (argv: string[]) => Promise<void>;
  /** The whole command table, and the command (or group) some words name: for ws help. */
  table: () => Command[];
  lookup: (words: string[]) => Found;
}

type Handler = (input: HandlerInput) => Promise<void>;
const from =
  <M>(load: () => Promise<M>, name: keyof M) =>
  async (): Promise<Handler> =>
    (await load())[name] as Handler;

const server = () => import("./server-cmds");
const session = () => import("./session-cmds");
const api = () => import("./api-cmds");
const attach = () => import("./attach-cmds");
const agents = () => import("./agent-cmds");
const panes = () => import("./pane-cmds");
const remote = () => import("./remote-cmds");
const workstreams = () => import("./workstream-cmds");
const projects = () => import("./project-cmds");

export const HANDLERS: Record<RunName, () => Promise<Handler>> = {
  start: from(server, "start"),
  server: from(server, "server"),
  killServer: from(server, "killServer"),
  doctor: from(server, "doctor"),
  box: from(() => import("./box-cmds"), "box"),
  restart: from(session, "restart"),
  sessionRestore: from(session, "sessionRestore"),
  sessionDiscard: from(session, "sessionDiscard"),
  sessionInfo: from(session, "sessionInfo"),
  describe: from(api, "describe"),
  call: from(api, "call"),
  events: from(api, "events"),
  tabList: from(api, "tabList"),
  attach: from(attach, "attach"),
  keys: from(attach, "keys"),
  hooks: from(agents, "hooks"),
  mcp: from(() => import("./mcp-cmds"), "mcp"),
  mcpInstall: from(() => import("./mcp-cmds"), "mcpInstall"),
  pushTest: from(() => import("./push-cmds"), "pushTest"),
  report: from(agents, "report"),
  agentSend: from(agents, "agentSend"),
  approvalHook: from(() => import("./approval-cmds"), "approvalHook"),
  run: from(() => import("./run-cmds"), "run"),
  popup: from(() => import("./run-cmds"), "popup"),
  paneList: from(panes, "paneList"),
  proxy: from(remote, "proxy"),
  remoteInstall: from(remote, "remoteInstall"),
  tmuxShim: from(() => import("./shim-cmds"), "tmuxShim"),
  tmuxCommand: from(() => import("./shim-cmds"), "tmuxCommand"),
  newWorkstream: from(workstreams, "newWorkstream"),
  done: from(workstreams, "done"),
  checkpoint: from(() => import("./checkpoint-cmds"), "checkpoint"),
  review: from(workstreams, "review"),
  prComments: from(workstreams, "prComments"),
  ship: from(() => import("./ship-cmds"), "ship"),
  templatesList: from(workstreams, "templatesList"),
  diff: from(workstreams, "diff"),
  reviewNote: from(workstreams, "reviewNote"),
  templatesShow: from(workstreams, "templatesShow"),
  projectNew: from(projects, "projectNew"),
  projectList: from(projects, "projectList"),
  projectShow: from(projects, "projectShow"),
  projectAttach: from(projects, "projectAttach"),
  projectRename: from(projects, "projectRename"),
  projectHandoff: from(projects, "projectHandoff"),
  open: from(() => import("./open-cmds"), "open"),
  selfUpdate: from(() => import("./self-update"), "selfUpdate"),
  completion: from(() => import("./completion"), "completion"),
  help: from(() => import("./help-cmds"), "help"),
  version: from(() => import("./help-cmds"), "version"),
  importTmux: from(() => import("./config-cmds"), "importTmux"),
  web: from(() => import("./web-cmds"), "web"),
  webTokens: from(() => import("./web-cmds"), "webTokens"),
  // runCli takes `ws batch` itself; here it was named inside a chain or a batch.
  batch: async () => async () => {
    throw new UsageError("ws batch runs a file of commands (or stdin): it can't be part of a chain or a batch");
  },
};
