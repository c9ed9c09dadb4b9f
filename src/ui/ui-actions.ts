// What each interface action does. Names and descriptions live in
// messages/ui-actions.ts's UI_ACTIONS table; this is only the behaviour.

import { controlChars } from "../safe-text";
import { panesOf, resizePane, neighbour, type PaneRect } from "../model/layout";
import type { Pane } from "../model/pane";
import type { Interface } from "./interface";
import { isUiAction } from "../messages/ui-actions";
import { asksFirst } from "./keymap";
import { checkCommandLine, completeLine, parseCommandLine, runCommandLine } from "./command-line";
import { paneDirectory } from "../model/process-info";
import { askShip, shipRequest } from "./ship-prompt";
import { chooseTree } from "./choose-tree";
import { promptValues } from "./prompt-values";
import { LAYOUT_PRESETS, type LayoutPreset } from "../model/layout-presets";

/** The preset each tab was last arranged in by next-layout/prev-layout (tmux cycles from there). */
const layoutOf = new WeakMap<object, LayoutPreset>();

function say(ui: Interface, text: string): void {
  ui.message = text;
  ui.invalidate();
}

/** What a command line printed: one line on the status line, more in a view. */
function showOutput(ui: Interface, title: string, { status, output }: { status: number; output: string }): void {
  const lines = output ? output.split("\n") : [];
  if (lines.length > 1) return ui.view(`${title}${status ? ` (exit ${status})` : ""}  (q closes)`, lines);
  if (lines.length || status) say(ui, lines[0] ?? `${title}: exit ${status}`);
}

/** A command line (prefix :, a key keys.toml binds to one): an interface action's name; else ws's
 * own words, checked as the CLI would and run in the focused pane's place and directory; else a
 * tmux command line (split-window -h; set -g mouse off), run on the server's model through the
 * tmux shim's parser. One line of output goes on the status line, more in a view. */
export function commandLine(ui: Interface, line: string): void {
  const problem = checkCommandLine(line);
  // An interface action's name alone (`refresh-client`, `zoom`), as tmux's command prompt takes;
  // it wins over ws's word of the same name (`help` opens the keys here, `dashboard` the overlay):
  // a person at the prompt means the screen in front of them.
  if (isUiAction(line.trim())) return runKeyBinding(ui, line.trim());
  const pane = ui.session.activeTab(ui.session.currentWorkspace).focused;
  const tmux = ui.tmuxLines;
  // The output shows on the client that typed the line.
  const back = ui.servedLater();
  if (problem && tmux?.knows(line)) {
    void paneDirectory(ui.session.panes.get(pane))
      .then((cwd) => tmux.run(line, { pane, cwd }))
      .then(
        (result) => back(() => showOutput(ui, line, result)),
        (e) => back(() => say(ui, `${line}: ${(e as Error).message}`)),
      );
    return;
  }
  if (problem) return say(ui, `ws ${line}: ${problem}`);
  const socket = ui.opts.socketPath;
  if (!socket) return say(ui, "this server runs no command lines");
  // ship asks first here (a person is there to answer), about the focused pane's workstream.
  const parsed = parseCommandLine(line, pane);
  if (ui.shipAsk && parsed?.path === "ship") return askShip(ui, ui.shipAsk, shipRequest(parsed.fields, pane));
  // The pane's directory is read first (asynchronously, as every /proc read): the line runs there.
  // A split from here shows and focuses the new pane, as prefix % does (the CLI's default is not to).
  const focus = parsed?.path === "split" && !/(^|\s)--focus\b/.test(line) ? ["--focus"] : [];
  void paneDirectory(ui.session.panes.get(pane))
    .then((cwd) => runCommandLine(line, socket, pane, cwd, focus))
    .then(
      (result) =>
        back(() => {
          if (!result.output && !result.status) ui.message = undefined;
          // ws new prints the pane alone on stdout, for scripts, and the sentence on stderr: a person
          // here reads the sentence (it names the pane) on the status line.
          if (parsed?.path === "new" && !result.status && result.stderr) return showOutput(ui, `ws ${line}`, { status: 0, output: result.stderr });
          showOutput(ui, `ws ${line}`, result);
        }),
      (e) => back(() => say(ui, `ws ${line}: ${(e as Error).message}`)),
    );
}

/** Run `act` in the focused program's current directory (so a split opens where you are, as a
 * command line runs: paneDirectory), once it has been read. What goes wrong then shows on the
 * status line, as a key's failure does. */
function inCwdOf(ui: Interface, p: Pane | undefined, act: (cwd: string | undefined) => void): void {
  void paneDirectory(p)
    .then(act)
    .catch((e) => {
      ui.message = (e as Error).message;
      ui.invalidate();
    });
}

type Towards = "left" | "right" | "up" | "down";

/** Move the focused pane's border towards `d` by `n` cells, as tmux's resize-pane -L/-R/-U/-D. */
export function moveBorder(ui: Interface, d: Towards, n: number, pane?: number, edge: "lo" | "hi" | "any" = "any"): boolean {
  const s = ui.session;
  const ws = s.currentWorkspace;
  const tab = s.activeTab(ws);
  if (tab.zoomed !== undefined) return false;
  const id = pane ?? tab.focused;
  const dir = d === "left" || d === "right" ? "right" : "below";
  const area = s.layoutArea();
  const headers = panesOf(tab.layout).length > 1;
  const before = s.rects(tab).find((r) => r.pane === id);
  if (!before) return false;
  const lo = (r: PaneRect) => (dir === "right" ? r.x : r.header?.y ?? r.y);
  const hi = (r: PaneRect) => (dir === "right" ? r.x + r.cols : r.y + r.rows);
  const towardsLow = d === "left" || d === "up";
  // Growing a pane moves the border on the side it sits in its split; shrinking moves the same
  // border back. Try both and keep the one that moved a border towards d.
  for (const delta of [n, -n]) {
    const next = resizePane(tab.layout, id, dir, delta, area, headers);
    const after = s.rects(tab, next).find((r) => r.pane === id);
    if (!after) continue;
    const movedLo = towardsLow ? lo(after) < lo(before) : lo(after) > lo(before);
    const movedHi = towardsLow ? hi(after) < hi(before) : hi(after) > hi(before);
    if ((movedLo && edge !== "hi") || (movedHi && edge !== "lo")) {
      s.setLayout(ws, tab, next);
      return true;
    }
  }
  return false;
}

export function toggleZoom(ui: Interface): void {
  const s = ui.session;
  const tab = s.activeTab(s.currentWorkspace);
  if (tab.zoomed !== undefined) s.zoom(tab.zoomed, "off");
  else if (panesOf(tab.layout).length > 1) s.zoom(tab.focused, "on");
}

function focusDir(ui: Interface, d: Towards): void {
  const s = ui.session;
  const tab = s.activeTab(s.currentWorkspace);
  const next = neighbour(s.rects(tab), tab.focused, d);
  if (next !== undefined) s.focusPane(next);
}

function gotoTab(ui: Interface, i: number): void {
  const s = ui.session;
  const ws = s.currentWorkspace;
  const n = ws.tabs.length;
  if (!n) return;
  const tab = ws.tabs[((i % n) + n) % n];
  if (tab) s.focusTab(ws, tab);
}

function gotoWorkspace(ui: Interface, i: number): void {
  const s = ui.session;
  const n = s.workspaces.length;
  const ws = s.workspaces[((i % n) + n) % n];
  if (ws) s.focusWorkspace(ws);
}

/** Quit the server. The session is kept for the next start (as `ws kill-server --keep`) unless the
 * server is a private --local one, whose save nothing would ever restore. */
function quit(ui: Interface): void {
  const keep = ui.opts.keepOnQuit ?? true;
  ui.detachClient({
    reason: "quit",
    message: keep ? "the ws server quit; its session is saved and the next ws restores it (ws session discard forgets it)" : "the ws server quit",
  });
  ui.opts.shutdown(keep);
}

function closePane(ui: Interface, id: number): void {
  if (ui.session.panes.has(id)) ui.session.closePane(id); // it may have exited while we asked
}

/** A pane as the question names it: its label (title or program), without control characters. */
const paneLabel = (p: Pane) => [...p.label.replace(controlChars(), "")].slice(0, 40).join("");

/** The y/n question a key asks before an action that can't be undone, and what `y` then does. The
 * answer acts on what was asked about (this pane), whatever has focus by then. */
function confirmation(ui: Interface, name: string): { question: string; yes: () => void } | undefined {
  const s = ui.session;
  if (name === "quit") {
    const n = s.panes.size;
    return { question: `Quit the ws server and close ${n === 1 ? "its only pane" : `all ${n} panes`}? (y/n)`, yes: () => quit(ui) };
  }
  if (name === "close-tab") {
    const ws = s.currentWorkspace;
    const tab = s.activeTab(ws);
    const n = panesOf(tab.layout).length;
    if (s.workspaces.length === 1 && ws.tabs.length === 1) return undefined; // the action says why not
    return { question: `Close tab ${ws.active + 1} (${s.tabName(tab).replace(controlChars(), "").slice(0, 40)})${n > 1 ? ` and its ${n} panes` : ""}? (y/n)`, yes: () => ws.tabs.includes(tab) && s.closeTab(ws, tab) };
  }
  if (name === "close-pane") {
    const pane = s.panes.get(s.activeTab(s.currentWorkspace).focused);
    // The last pane can't be closed: run the action, which says so, rather than ask for nothing.
    if (!pane || s.panes.size <= 1) return undefined;
    return { question: `Close pane ${pane.id} (${paneLabel(pane)})? (y/n)`, yes: () => closePane(ui, pane.id) };
  }
  return undefined;
}

/** What a key is bound to, run: an action (asking first when keys.toml's `confirm` says so) or a
 * command line. run_command and the dashboard's buttons are explicit already and call runUiAction directly. */
export function runKeyBinding(ui: Interface, name: string): void {
  if (!isUiAction(name)) return commandLine(ui, name); // keys.toml bound a command line
  const ask = asksFirst(ui.keymap, name) ? confirmation(ui, name) : undefined;
  if (ask) ui.confirm(ask.question, ask.yes);
  else runUiAction(ui, name);
}

export function runUiAction(ui: Interface, name: string): void {
  const s = ui.session;
  const ws = s.currentWorkspace;
  const tab = s.activeTab(ws);
  const focused = s.panes.get(tab.focused);
  const tabMatch = /^tab-([0-9])$/.exec(name);
  if (tabMatch) {
    const t = ws.tabs.find((_, i) => ui.tabNumber(i) === Number(tabMatch[1]));
    if (t) s.focusTab(ws, t);
    return;
  }
  switch (name) {
    case "detach":
      return ui.detachThis({ reason: "detached", message: "detached (ws attach to come back)" });
    case "quit":
      return quit(ui);
    case "split-right":
    case "split-below": {
      const target = tab.focused; // the pane asked about, whatever has focus once the cwd is read
      return inCwdOf(ui, focused, (cwd) => s.split(target, { right: name === "split-right", focus: true, cwd }));
    }
    case "new-tab":
      return ui.ask("new tab name (Enter for none)", "", (n) => {
        inCwdOf(ui, focused, (cwd) => s.newTab(ws, { name: n.trim() || undefined, cwd, focus: true }));
      });
    case "next-tab":
      return gotoTab(ui, ws.active + 1);
    case "prev-tab":
      return gotoTab(ui, ws.active - 1);
    case "focus-left":
    case "focus-right":
    case "focus-up":
    case "focus-down":
      return focusDir(ui, name.slice(6) as Towards);
    case "focus-next": {
      const ids = panesOf(tab.layout);
      const next = ids[(ids.indexOf(tab.focused) + 1) % ids.length];
      if (next !== undefined) s.focusPane(next);
      return;
    }
    case "close-pane":
      s.closePane(tab.focused); // the last pane: an error the status line shows
      return;
    case "zoom":
      return toggleZoom(ui);
    case "resize-left":
    case "resize-right":
      moveBorder(ui, name.slice(7) as Towards, 2);
      return;
    case "resize-up":
    case "resize-down":
      moveBorder(ui, name.slice(7) as Towards, 1);
      return;
    case "new-workspace":
      return ui.ask("new workspace name", "", (n) => {
        const name = n.trim();
        if (!name) return;
        const existing = s.findWorkspace(name);
        if (existing) return s.focusWorkspace(existing);
        inCwdOf(ui, focused, (cwd) => s.focusWorkspace(s.findWorkspace(name) ?? s.newWorkspace(name, { cwd })));
      });
    case "switch-workspace":
      return ui.pick(
        "Switch workspace (Enter or 1-9)",
        s.workspaces.map((w, i) => `${i + 1}  ${w.name}  (${w.tabs.length} tab${w.tabs.length === 1 ? "" : "s"})`),
        s.current,
        (i) => {
          const w = s.workspaces[i];
          if (w) s.focusWorkspace(w);
        },
      );
    case "next-workspace":
      return gotoWorkspace(ui, s.current + 1);
    case "prev-workspace":
      return gotoWorkspace(ui, s.current - 1);
    case "rename-tab":
      return ui.ask("rename tab", tab.name ?? s.tabName(tab), (n) => s.renameTab(ws, tab, n.trim() || undefined));
    case "rename-workspace":
      return ui.ask("rename workspace", ws.name, (n) => {
        if (n.trim()) s.renameWorkspace(ws, n.trim());
      });
    case "copy-mode":
      return ui.enterCopy();
    case "help":
      return ui.showHelp();
    case "dashboard":
      if (!ui.dashboard) throw new Error("the dashboard needs the agents feature");
      return ui.dashboard();
    case "new-workstream": {
      const make = ui.newWorkstream;
      if (!make) throw new Error("workstreams are not in this ws build");
      const say = (text: string) => {
        ui.message = text;
        ui.invalidate();
      };
      return ui.ask("new workstream: TEMPLATE NAME", "", (t) => {
        const [template, name, ...extra] = t.trim().split(/\s+/);
        if (!template || !name || extra.length) return say("give a template and a name, e.g. default fix-login");
        say(`making workstream ${name}…`);
        inCwdOf(ui, focused, (cwd) => void make(template, name, cwd).then(() => say(`workstream ${name} is open`), (e) => say((e as Error).message)));
      });
    }
    case "last-pane": {
      const id = ui.focusHistory.lastPane();
      if (id === undefined) return say(ui, "no last pane in this tab");
      return s.focusPane(id);
    }
    case "last-tab": {
      const id = ui.focusHistory.lastTab();
      const t = ws.tabs.find((t) => t.id === id);
      if (!t) return say(ui, "no last tab");
      return s.focusTab(ws, t);
    }
    case "close-tab":
      return s.closeTab(ws, tab); // the last tab: an error the status line shows
    case "paste":
      if (ui.lastCopy === undefined) return say(ui, "nothing copied yet (prefix [ to copy)");
      return ui.typeIn({ Paste: ui.lastCopy });
    case "command-prompt": {
      const values = promptValues(s);
      return ui.ask("ws", "", (line) => {
        if (line.trim()) commandLine(ui, line);
      }, (line) => completeLine(line, values));
    }
    case "choose-tree":
      return chooseTree(ui);
    case "sync-panes":
      if (ui.syncTabs.delete(tab.id)) return say(ui, "panes of this tab no longer synchronized");
      ui.syncTabs.add(tab.id);
      return say(ui, "typing goes to every pane of this tab (prefix S again stops it)");
    case "reload-config": {
      if (!ui.reloadConfig) throw new Error("this server can't read its configuration again");
      const problems = ui.reloadConfig();
      return say(ui, problems.length ? problems.join("  ·  ") : "keys.toml read again");
    }
    case "refresh-client":
      // Forget what the terminal was sent: the next frame clears it and draws every cell.
      ui.client?.diff.reset();
      return ui.invalidate();
    case "next-blocked-agent": {
      if (!ui.nextBlockedAgent) throw new Error("the agents feature is not in this ws build");
      const id = ui.nextBlockedAgent(focused?.id);
      if (id === undefined) return say(ui, "no agent is waiting for you");
      return s.focusPane(id);
    }
    case "display-panes":
      return ui.showPaneNumbers(true);
    case "next-layout":
    case "prev-layout": {
      const at = LAYOUT_PRESETS.indexOf(layoutOf.get(tab) ?? LAYOUT_PRESETS[LAYOUT_PRESETS.length - 1]!);
      const n = LAYOUT_PRESETS.length;
      const next = LAYOUT_PRESETS[(at + (name === "next-layout" ? 1 : n - 1)) % n]!;
      layoutOf.set(tab, next);
      s.arrange(ws, tab, next);
      return say(ui, next);
    }
    case "swap-pane-up":
    case "swap-pane-down": {
      const ids = panesOf(tab.layout);
      const other = ids[(ids.indexOf(tab.focused) + (name === "swap-pane-down" ? 1 : ids.length - 1)) % ids.length];
      if (other !== undefined && other !== tab.focused) s.swapPanes(tab.focused, other);
      return;
    }
    case "break-pane": {
      if (panesOf(tab.layout).length < 2) return say(ui, "can't break with only one pane");
      const id = tab.focused;
      s.movePane(id, { workspace: ws.name });
      return s.focusPane(id);
    }
    case "send-prefix":
      if (focused) ui.toPane({ Key: { code: { Char: " " }, modifiers: "CONTROL", kind: "Press", state: "" } }, focused);
      return;
  }
  throw new Error(`unknown action "${name}"`);
}
