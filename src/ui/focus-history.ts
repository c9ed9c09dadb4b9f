// What was focused before: tmux's last-pane (per tab) and last-window (per workspace), for
// `prefix ;` and `prefix l`. Watches the session's focus events; the model keeps no history.

import type { Session } from "../model/session";

export class FocusHistory {
  private focusedOf = new Map<number, number>(); // tab id → its focused pane
  private lastPaneOf = new Map<number, number>(); // tab id → the pane focused before
  private activeOf = new Map<number, number>(); // workspace id → its active tab id
  private lastTabOf = new Map<number, number>(); // workspace id → the tab active before

  constructor(private readonly session: Session) {
    this.observe();
  }

  /** Note what is focused now; whatever it replaced becomes the "last" one. */
  observe(): void {
    const live = new Set<number>();
    const liveWs = new Set<number>();
    for (const ws of this.session.workspaces) {
      liveWs.add(ws.id);
      const active = ws.tabs[ws.active];
      if (active) {
        const before = this.activeOf.get(ws.id);
        if (before !== undefined && before !== active.id) this.lastTabOf.set(ws.id, before);
        this.activeOf.set(ws.id, active.id);
      }
      for (const tab of ws.tabs) {
        live.add(tab.id);
        const before = this.focusedOf.get(tab.id);
        if (before !== undefined && before !== tab.focused) this.lastPaneOf.set(tab.id, before);
        this.focusedOf.set(tab.id, tab.focused);
      }
    }
    // Bounded by what exists: closed tabs are forgotten.
    for (const m of [this.focusedOf, this.lastPaneOf]) for (const id of m.keys()) if (!live.has(id)) m.delete(id);
    for (const m of [this.activeOf, this.lastTabOf]) for (const id of m.keys()) if (!liveWs.has(id)) m.delete(id);
  }

  /** The pane focused before the current one in the tab on screen, if it is still there. */
  lastPane(): number | undefined {
    const s = this.session;
    const tab = s.activeTab(s.currentWorkspace);
    const id = this.lastPaneOf.get(tab.id);
    return id !== undefined && id !== tab.focused && s.where(id)?.tab === tab ? id : undefined;
  }

  /** The tab shown before the current one in this workspace, if it is still there. */
  lastTab(): number | undefined {
    const ws = this.session.currentWorkspace;
    const id = this.lastTabOf.get(ws.id);
    return ws.tabs.some((t, i) => t.id === id && i !== ws.active) ? id : undefined;
  }
}
