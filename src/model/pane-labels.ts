// What a pane is called and shows on its border: its name (pane_rename), tmux's border settings
// through the shim (pane_border), and the foreground program its label may follow. Carried out
// through the Session's own writes (SessionWrites), each publishing pane_renamed when what the
// pane's label shows has changed, and pane_border_changed for the shim's border settings.
import type { SessionWrites } from "./session-writes";
import { checkName } from "../protocol/names";

/** tmux's pane border settings: the pane's own format, and its tab's format and status;
 * undefined leaves one as it is, "" clears it. */
export interface BorderSettings {
  format?: string;
  tabFormat?: string;
  status?: "top" | "bottom" | "off";
}

/** Name a pane (pane_rename): the name is its label whatever its program does; "" clears it. */
export function renamePane(w: SessionWrites, id: number, name: string): void {
  const pane = w.session.pane(id);
  if (name) checkName("name", name);
  pane.setName(name || undefined);
  w.bus.emit({ type: "pane_renamed", pane: id, title: pane.title, label: pane.label, name: pane.name ?? null });
}

/** tmux's pane border settings through the shim (pane_border): the pane's own format, and its
 * tab's format and status; undefined leaves one as it is, "" clears it. The label row redraws
 * on pane_border_changed. */
export function setPaneBorder(w: SessionWrites, id: number, b: BorderSettings): void {
  const pane = w.session.pane(id);
  const { ws, tab } = w.session.locate(id);
  if (b.format !== undefined) pane.setBorderFormat(b.format || undefined);
  if (b.tabFormat !== undefined || b.status !== undefined) {
    const border = { ...tab.border };
    if (b.tabFormat !== undefined) border.format = b.tabFormat || undefined;
    if (b.status !== undefined) border.status = b.status;
    tab.border = border;
  }
  w.bus.emit({ type: "pane_border_changed", workspace: ws.name, tab: tab.id, pane: id });
}

/** What is in a pane's foreground now (the program-names feature looks): its label may follow. */
export function setForeground(w: SessionWrites, id: number, fg: { pid: number; name: string; argv?: string[] }): void {
  const pane = w.session.panes.get(id);
  if (!pane || pane.exited) return;
  const label = pane.label;
  // The first words are what tells a program (an interpreter's script included): a bounded copy.
  const argv = fg.argv?.slice(0, 16).map((a) => a.slice(0, 1024));
  const changed = argv !== undefined && (pane.foregroundPid !== fg.pid || pane.foregroundArgv.join("\0") !== argv.join("\0"));
  pane.noteForeground(fg.pid, fg.name, argv);
  if (pane.label !== label) w.bus.emit({ type: "pane_renamed", pane: id, title: pane.title, label: pane.label });
  // Agents without hooks are told by their program (features/agents/screen-watch.ts).
  if (changed) w.bus.emit({ type: "pane_foreground", pane: id, pid: fg.pid, argv: [...argv] });
}
