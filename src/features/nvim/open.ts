// ws open: show a file at a line and column in the Neovim of the caller's workstream (outside a
// workstream, of the caller's tab), and focus that pane. A tab without a Neovim ws can drive gets
// one in a split beside the caller, started on the file.
import type { Session } from "../../model/session";
import type { Tab } from "../../model/workspace";
import { panesOf } from "../../model/layout";
import { parentDir } from "../../paths";
import { WsError } from "../../protocol/errors";
import { charClass } from "../../safe-text";
import { connectNvim } from "./rpc";
import { nvimSocketOf, nvimSocketPath } from "./listen";
import { parseLocation, type Location } from "./location";

/** Numbers Neovim takes for a line or column (its own limit is far above any file's). */
const MAX_POSITION = 2 ** 31 - 1;

/** C0 controls (NUL, CR, LF, ESC, …), DEL and the C1 controls: none belongs in a file's name, and
 * Neovim's `:drop` would take a CR or LF as the end of the name. */
const control = () => charClass(["c0", "del", "c1"]);

function checkLocation(text: string): Location {
  const bad = control().exec(text);
  if (bad) {
    const code = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    throw new WsError(`\`location\` holds a control character (${code} at ${bad.index}); a location may hold none`, "invalid_params", { param: "location" });
  }
  const loc = parseLocation(text);
  if (!loc.path.startsWith("/")) throw new WsError(`\`location\` must start with an absolute path (got ${JSON.stringify(loc.path)}); ws open makes a relative one absolute`, "invalid_params", { param: "location" });
  for (const n of [loc.line, loc.col]) if (n !== undefined && n > MAX_POSITION) throw new WsError(`\`location\`: ${n} is past the largest line or column`, "invalid_params", { param: "location" });
  return loc;
}

/** The tabs to look for a Neovim in: the caller's, then the other tabs of its workstream. */
function tabsToSearch(session: Session, caller: number): Tab[] {
  const own = session.locate(caller).tab;
  const workstream = session.pane(caller).env.WS_WORKSTREAM;
  const tabs = [own];
  if (workstream)
    for (const ws of session.workspaces)
      for (const tab of ws.tabs)
        if (tab !== own && panesOf(tab.layout).some((id) => session.panes.get(id)?.env.WS_WORKSTREAM === workstream)) tabs.push(tab);
  return tabs;
}

/** Show `loc` in the Neovim listening on `socket`; false when it can't be reached. */
async function drive(socket: string, loc: Location): Promise<boolean> {
  let nvim;
  try {
    nvim = await connectNvim(socket);
  } catch {
    return false; // gone (its socket is left from before a restart, say): look further
  }
  try {
    const escaped = (await nvim.request("nvim_call_function", ["fnameescape", [loc.path]])) as string;
    // :drop goes to a window that shows the file, else edits it here (splitting when this
    // buffer has unsaved changes).
    await nvim.request("nvim_command", [`drop ${escaped}`]);
    if (loc.line !== undefined) await nvim.request("nvim_call_function", ["cursor", [loc.line, loc.col ?? 1]]);
    return true;
  } catch (e) {
    throw new WsError(`Neovim refused to open ${loc.path}: ${(e as Error).message}`, "nvim_failed");
  } finally {
    nvim.close();
  }
}

/** Open `location` (`/abs/path[:line[:col]]`) for pane `caller`; returns the Neovim's pane. */
export async function openLocation(session: Session, caller: number, location: string): Promise<number> {
  session.pane(caller); // a pane (and so a tab) that has gone: pane_not_found
  const loc = checkLocation(location);
  const socketDir = parentDir(session.opts.socketPath);
  for (const tab of tabsToSearch(session, caller))
    for (const id of panesOf(tab.layout)) {
      const pane = session.panes.get(id);
      const socket = pane && !pane.exited ? nvimSocketOf(pane.argv, socketDir) : undefined;
      if (socket && (await drive(socket, loc))) {
        if (session.panes.has(id)) session.focusPane(id);
        return id;
      }
    }
  // No Neovim to drive: start one beside the caller, on the file (argv, never a shell line).
  let listen: string;
  try {
    listen = nvimSocketPath(socketDir);
  } catch (e) {
    throw new WsError(`can't start a Neovim ws can drive: ${(e as Error).message}`, "nvim_failed");
  }
  const argv = ["nvim", "--listen", listen];
  if (loc.line !== undefined) argv.push(`+call cursor(${loc.line}, ${loc.col ?? 1})`);
  argv.push("--", loc.path);
  const from = session.pane(caller);
  const workstream = from.env.WS_WORKSTREAM;
  // Beside a boxed pane, boxed as it is (its --listen socket then is the box's own: ws can't drive it).
  return session.split(caller, { argv, cwd: from.cwd, right: true, focus: true, ...(workstream ? { env: { WS_WORKSTREAM: workstream } } : {}), ...(from.box ? { box: from.box } : {}) }).id;
}
