// What the status line and the tab bar say that keys.toml shapes: the [status] formats' values,
// and each tab's number (base-index; with renumber-windows off, the number a tab was given).
import type { Session } from "../model/session";
import type { Keymap } from "./keymap";
import { clock, DEFAULT_LEFT, DEFAULT_RIGHT, hostName, renderFormat } from "./status-format";

/** The status line's parts: keys.toml's [status] formats, or the defaults naming the prefix. */
export function statusParts(
  s: Session,
  keymap: Keymap,
  syncTabs: ReadonlySet<number>,
  tabNumber: (i: number) => number,
  badge: () => string | undefined,
): { left: string; right: string; badge: boolean } {
  const ws = s.currentWorkspace;
  const tab = ws.tabs[ws.active];
  const f = keymap.status ?? {};
  const sync = tab && syncTabs.has(tab.id) ? "SYNC" : "";
  // The agents summary shows after the left part unless a format places it itself.
  const placed = !!(f.left?.includes("{agents}") || f.right?.includes("{agents}"));
  const values: Record<string, string | undefined> = {
    workspace: ws.name,
    tab: tab ? s.tabName(tab) : "",
    tab_index: `${tabNumber(ws.active)}/${ws.tabs.length}`,
    pane: tab ? `${tab.focused}${tab.zoomed !== undefined ? " (zoomed)" : ""}` : "-",
    agents: placed ? badge() : undefined,
    time: clock(),
    host: hostName(),
    prefix: keymap.prefix,
    sync,
  };
  const left = renderFormat(f.left ?? DEFAULT_LEFT, values) + (f.left === undefined && sync ? "  SYNC" : "");
  const right = renderFormat(f.right ?? DEFAULT_RIGHT, values);
  return { left, right, badge: !placed };
}

/** Each tab's number while renumber-windows is off, by tab id: given once, kept while it lives. */
export class TabNumbers {
  private readonly given = new Map<number, number>();

  /** The number tab i shows: its place from base, or with renumbering off the number it got, a
   * new tab the one after the workspace's highest. */
  of(tabs: readonly { id: number }[], i: number, base: number, renumber: boolean): number {
    if (renumber) return i + base;
    let high = base - 1;
    for (const t of tabs) high = Math.max(high, this.given.get(t.id) ?? high);
    for (const t of tabs) if (!this.given.has(t.id)) this.given.set(t.id, ++high);
    return this.given.get(tabs[i]?.id ?? -1) ?? i + base;
  }

  /** A closed tab's number is free again. */
  delete(tab: number): void {
    this.given.delete(tab);
  }
}
