// Workspaces and tabs: plain data the session mutates. A tab owns a layout of pane ids.
import type { Layout } from "./layout";
import type { Popup } from "./popup";

export interface Tab {
  readonly id: number;
  /** A name given by the user; without one the tab is called after its focused pane. */
  name?: string;
  project?: string;
  layout: Layout;
  focused: number;
  /** The pane shown alone, filling the tab, if any. */
  zoomed?: number;
  /** A pane floating over the layout, not in it (popup.ts). */
  popup?: Popup;
  /** tmux's pane-border-status and pane-border-format for the tab, set through the tmux shim:
   * with a status of top or bottom, each pane's label row shows its format (its own, else this
   * one, else tmux's default) as tmux draws it. */
  border?: TabBorder;
}

export interface TabBorder {
  status?: "top" | "bottom" | "off";
  format?: string;
}

export interface Workspace {
  readonly id: number;
  name: string;
  tabs: Tab[];
  /** Index into tabs of the active tab. */
  active: number;
}

/** Find by exact name, else ignoring case (spec: "Workspace name, exact then ignoring case"). */
export function findByName<T extends { name: string }>(items: readonly T[], name: string): T | undefined {
  return items.find((w) => w.name === name) ?? items.find((w) => w.name.toLowerCase() === name.toLowerCase());
}
