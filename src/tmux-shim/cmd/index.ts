// The shim's command table: tmux 3.3's cmd_table, each entry from the module of its subject
// (cmd/panes.ts, windows.ts, sessions.ts, buffers.ts, options.ts, shell.ts, popup.ts), as tmux's
// cmd.c lists the cmd_entry each cmd-*.c file carries. Every name tmux has is listed, so prefixes
// resolve (and are ambiguous) as in tmux; one the shim does not carry out fails with exit 1, never
// a silent 0 (a tool would wait for a result that never comes).
import { ShimError } from "../world";
import { getopt } from "../getopt";
import type { Ctx, Entry } from "./helpers";
import * as panes from "./panes";
import * as windows from "./windows";
import * as sessions from "./sessions";
import * as buffers from "./buffers";
import * as options from "./options";
import * as shell from "./shell";
import * as popup from "./popup";

export type { Ctx } from "./helpers";

/** tmux 3.3's cmd_table, in its order (prefix resolution depends on it). */
export const TMUX_COMMANDS: readonly Entry[] = [
  sessions.attachSessionEntry,
  options.bindKeyEntry,
  panes.breakPaneEntry,
  panes.capturePaneEntry,
  buffers.chooseBufferEntry,
  popup.chooseClientEntry,
  popup.chooseTreeEntry,
  panes.clearHistoryEntry,
  popup.clearPromptHistoryEntry,
  panes.clockModeEntry,
  popup.commandPromptEntry,
  popup.confirmBeforeEntry,
  panes.copyModeEntry,
  popup.customizeModeEntry,
  buffers.deleteBufferEntry,
  sessions.detachClientEntry,
  popup.displayMenuEntry,
  popup.displayMessageEntry,
  popup.displayPopupEntry,
  popup.displayPanesEntry,
  windows.findWindowEntry,
  sessions.hasSessionEntry,
  shell.ifShellEntry,
  panes.joinPaneEntry,
  panes.killPaneEntry,
  sessions.killServerEntry,
  sessions.killSessionEntry,
  windows.killWindowEntry,
  panes.lastPaneEntry,
  windows.lastWindowEntry,
  windows.linkWindowEntry,
  buffers.listBuffersEntry,
  sessions.listClientsEntry,
  options.listCommandsEntry,
  options.listKeysEntry,
  panes.listPanesEntry,
  sessions.listSessionsEntry,
  windows.listWindowsEntry,
  buffers.loadBufferEntry,
  sessions.lockClientEntry,
  sessions.lockServerEntry,
  sessions.lockSessionEntry,
  panes.movePaneEntry,
  windows.moveWindowEntry,
  sessions.newSessionEntry,
  windows.newWindowEntry,
  windows.nextLayoutEntry,
  windows.nextWindowEntry,
  buffers.pasteBufferEntry,
  panes.pipePaneEntry,
  windows.previousLayoutEntry,
  windows.previousWindowEntry,
  sessions.refreshClientEntry,
  sessions.renameSessionEntry,
  windows.renameWindowEntry,
  panes.resizePaneEntry,
  windows.resizeWindowEntry,
  panes.respawnPaneEntry,
  windows.respawnWindowEntry,
  windows.rotateWindowEntry,
  shell.runShellEntry,
  buffers.saveBufferEntry,
  windows.selectLayoutEntry,
  panes.selectPaneEntry,
  windows.selectWindowEntry,
  panes.sendKeysEntry,
  panes.sendPrefixEntry,
  sessions.serverAccessEntry,
  buffers.setBufferEntry,
  options.setEnvironmentEntry,
  options.setHookEntry,
  options.setOptionEntry,
  options.setWindowOptionEntry,
  buffers.showBufferEntry,
  options.showEnvironmentEntry,
  options.showHooksEntry,
  popup.showMessagesEntry,
  options.showOptionsEntry,
  popup.showPromptHistoryEntry,
  options.showWindowOptionsEntry,
  options.sourceFileEntry,
  panes.splitWindowEntry,
  sessions.startServerEntry,
  sessions.suspendClientEntry,
  panes.swapPaneEntry,
  windows.swapWindowEntry,
  sessions.switchClientEntry,
  options.unbindKeyEntry,
  windows.unlinkWindowEntry,
  shell.waitForEntry,
];

/** cmd_find: an alias or a whole name, else a unique prefix of a name. */
export function findCommand(name: string): Entry {
  let found: Entry | undefined;
  let ambiguous = false;
  for (const e of TMUX_COMMANDS) {
    if (e.alias === name) {
      ambiguous = false;
      found = e;
      break;
    }
    if (!e.name.startsWith(name)) continue;
    if (found) ambiguous = true;
    found = e;
    if (e.name === name) break;
  }
  if (ambiguous) {
    const could = TMUX_COMMANDS.filter((e) => e.name.startsWith(name)).map((e) => e.name);
    throw new ShimError(`ambiguous command: ${name}, could be: ${could.join(", ")}`);
  }
  if (!found) throw new ShimError(`unknown command: ${name}`);
  return found;
}

/** Run one command: its words, the name first. */
export async function runCommand(ctx: Ctx, words: string[]): Promise<void> {
  const entry = findCommand(words[0]!);
  if (!entry.run) throw new ShimError(`${entry.name}: not supported by ws's tmux shim`);
  await entry.run(ctx, getopt(entry.name, entry.template ?? "", words.slice(1)), entry.name);
}

