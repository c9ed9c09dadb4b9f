// tmux's targets (-t/-s): %N, @N, $N, session:window.pane, window.pane, names and indexes, and
// tmux's errors for what is not there. No target means the pane the call comes from ($TMUX_PANE).
import { ShimError, type TPane, type TSession, type TWindow, type World } from "./world";

export interface Here {
  /** The calling pane ($TMUX_PANE), when it still exists. */
  pane?: TPane;
}

/** The pane the call comes from, else the focused pane of the workspace on screen. */
export function currentPane(world: World, here: Here): TPane {
  if (here.pane) return here.pane;
  const s = world.sessions.find((x) => x.current) ?? world.sessions[0];
  const w = s?.windows.find((x) => x.active) ?? s?.windows[0];
  const p = w?.panes.find((x) => x.active) ?? w?.panes[0];
  if (!p) throw new ShimError("no current pane");
  return p;
}

const activeWindow = (s: TSession) => s.windows.find((w) => w.active) ?? s.windows[0]!;
const activePane = (w: TWindow) => w.panes.find((p) => p.active) ?? w.panes[0]!;

function findSession(world: World, name: string, here: Here): TSession | undefined {
  if (name === "") return currentPane(world, here).window.session;
  if (/^\$\d+$/.test(name)) return world.sessions.find((s) => s.id === Number(name.slice(1)));
  if (/^%\d+$/.test(name)) return world.panes.get(Number(name.slice(1)))?.window.session;
  if (/^@\d+$/.test(name)) return findWindowById(world, Number(name.slice(1)))?.session;
  const exactOnly = name.startsWith("=");
  const n = exactOnly ? name.slice(1) : name;
  const exact = world.sessions.find((s) => s.name === n);
  if (exact || exactOnly) return exact;
  const prefixed = world.sessions.filter((s) => s.name.startsWith(n));
  if (prefixed.length > 1) throw new ShimError(`can't find session: ${name}`);
  return prefixed[0];
}

function findWindowById(world: World, id: number): TWindow | undefined {
  for (const s of world.sessions) for (const w of s.windows) if (w.id === id) return w;
  return undefined;
}

function findWindow(world: World, session: TSession, name: string, here: Here): TWindow | undefined {
  if (name === "") {
    const cur = currentPane(world, here).window;
    return cur.session === session ? cur : activeWindow(session);
  }
  if (/^@\d+$/.test(name)) return findWindowById(world, Number(name.slice(1)));
  if (/^%\d+$/.test(name)) return world.panes.get(Number(name.slice(1)))?.window;
  if (/^\d+$/.test(name)) return session.windows.find((w) => w.index === Number(name));
  if (name === "{start}" || name === "^") return session.windows[0];
  if (name === "{end}" || name === "$") return session.windows[session.windows.length - 1];
  const exactOnly = name.startsWith("=");
  const n = exactOnly ? name.slice(1) : name;
  const exact = session.windows.filter((w) => w.name === n);
  if (exact.length > 1) throw new ShimError(`can't find window: ${name}`);
  if (exact.length || exactOnly) return exact[0];
  const prefixed = session.windows.filter((w) => w.name.startsWith(n));
  if (prefixed.length > 1) throw new ShimError(`can't find window: ${name}`);
  return prefixed[0];
}

function findPaneIn(window: TWindow, name: string, world: World): TPane | undefined {
  if (name === "") return activePane(window);
  if (/^%\d+$/.test(name)) return world.panes.get(Number(name.slice(1)));
  if (/^\d+$/.test(name)) return window.panes.find((p) => p.index === Number(name));
  if (name === "{top-left}" || name === "{first}") return window.panes[0];
  if (name === "{last}" || name === "{bottom-right}") return window.panes[window.panes.length - 1];
  return undefined;
}

/** `session:window[.pane]`: its window (throwing tmux's errors) and the pane part ("" when none);
 * undefined when the target names no session. */
function sessionWindow(world: World, target: string, here: Here): { window: TWindow; panePart: string } | undefined {
  const colon = target.indexOf(":");
  if (colon < 0) return undefined;
  const session = findSession(world, target.slice(0, colon), here);
  if (!session) throw new ShimError(`can't find session: ${target.slice(0, colon)}`);
  const rest = target.slice(colon + 1);
  const dot = rest.lastIndexOf(".");
  const winPart = dot >= 0 ? rest.slice(0, dot) : rest;
  const window = findWindow(world, session, winPart, here);
  if (!window) throw new ShimError(`can't find window: ${winPart}`);
  return { window, panePart: dot >= 0 ? rest.slice(dot + 1) : "" };
}

/** A pane target. */
export function resolvePane(world: World, target: string | undefined, here: Here): TPane {
  if (target === undefined || target === "") return currentPane(world, here);
  const fail = () => new ShimError(`can't find pane: ${target}`);
  if (/^%\d+$/.test(target)) return world.panes.get(Number(target.slice(1))) ?? (() => { throw fail(); })();
  const qualified = sessionWindow(world, target, here);
  if (qualified) {
    const pane = findPaneIn(qualified.window, qualified.panePart, world);
    if (!pane) throw new ShimError(`can't find pane: ${qualified.panePart}`);
    return pane;
  }
  const here0 = currentPane(world, here).window.session;
  const dot = target.lastIndexOf(".");
  if (dot >= 0) {
    const window = findWindow(world, here0, target.slice(0, dot), here);
    const pane = window && findPaneIn(window, target.slice(dot + 1), world);
    if (pane) return pane;
  }
  const window = /^@\d+$/.test(target) ? findWindowById(world, Number(target.slice(1))) : findWindow(world, here0, target, here);
  if (window) return activePane(window);
  const session = findSession(world, target, here);
  if (session) return activePane(activeWindow(session));
  throw fail();
}

/** A window target. */
export function resolveWindow(world: World, target: string | undefined, here: Here): TWindow {
  if (target === undefined || target === "") return currentPane(world, here).window;
  const qualified = sessionWindow(world, target, here);
  if (qualified) return qualified.window;
  const window = findWindow(world, currentPane(world, here).window.session, target, here);
  if (window) return window;
  const session = findSession(world, target, here);
  if (session) return activeWindow(session);
  throw new ShimError(`can't find window: ${target}`);
}

/** A session target. */
export function resolveSession(world: World, target: string | undefined, here: Here): TSession {
  if (target === undefined || target === "") return currentPane(world, here).window.session;
  const name = target.includes(":") ? target.slice(0, target.indexOf(":")) : target;
  const session = findSession(world, name, here);
  if (!session) throw new ShimError(`can't find session: ${name}`);
  return session;
}
