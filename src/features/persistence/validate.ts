// Checking a save's body before anything is built from it. Every value restore reads is checked
// here (types, ranges, names, the layout tree). One bad pane, tab or workspace is left out with a
// note in `skipped`; a body with nothing usable left is refused whole (the caller sets the file
// aside). What comes out can be restored without further checks.
import type { Layout } from "../../model/layout";
import { removePane } from "../../model/layout";
import { clampClientSize } from "../../model/client-size";
import { hasControl, logValue } from "../../safe-text";
import type { SaveBody, SavedPane, SavedTab, SavedWorkspace } from "./format";
import { isArgv, isInt, isObj, noNul, savedNameProblem } from "./section";
import { BODY_SECTIONS, PANE_SECTIONS, type SavedBodySections } from "./sections";

export { savedNameProblem };

/** Deeper layout trees are refused: far beyond any real layout, and it keeps the recursion here and
 * in the layout code well inside the stack. */
export const MAX_LAYOUT_DEPTH = 1000;
/** Longest pane title a restore takes (titles come from programs, not the name rule). */
const MAX_TITLE = 1024;
/** A pane's saved text beyond this is cut (from the front): its history keeps far less anyway. */
export const MAX_SCROLLBACK_CHARS = 16 * 1024 * 1024;
/** Notes kept about skipped parts (the count of the rest is added). */
const MAX_NOTES = 50;

export type BodyCheck = { body: SaveBody; skipped: string[] } | { fatal: string };


/** The layout tree as saved, or why it can't be used; leaf ids go to `seen`. */
function checkLayout(l: unknown, seen: number[], depth = 0): string | undefined {
  if (depth > MAX_LAYOUT_DEPTH) return `its layout is deeper than ${MAX_LAYOUT_DEPTH} splits`;
  if (!isObj(l)) return "a layout node is not an object";
  if (l.kind === "pane") {
    if (!isInt(l.pane)) return "a layout leaf has no pane id";
    seen.push(l.pane);
    return undefined;
  }
  if (l.kind !== "split") return `unknown layout node kind ${logValue(l.kind)}`;
  if (l.dir !== "right" && l.dir !== "below") return `bad split direction ${logValue(l.dir)}`;
  if (typeof l.ratio !== "number" || !(l.ratio > 0 && l.ratio < 1)) return `split ratio ${logValue(l.ratio)} is not between 0 and 1`;
  return checkLayout(l.a, seen, depth + 1) ?? checkLayout(l.b, seen, depth + 1);
}

/** A copy of the tree with only the fields restore reads. */
// biome-ignore lint/suspicious/noExplicitAny: called only on a tree checkLayout has already accepted
function cleanLayout(l: any): Layout {
  return l.kind === "pane" ? { kind: "pane", pane: l.pane } : { kind: "split", dir: l.dir, ratio: l.ratio, a: cleanLayout(l.a), b: cleanLayout(l.b) };
}

function checkPane(p: unknown): { pane: SavedPane; note?: string } | string {
  if (!isObj(p)) return "not an object";
  if (!isInt(p.id)) return "no id";
  if (!isArgv(p.command)) return "command is not an array of strings";
  if (p.argv !== undefined && !isArgv(p.argv)) return "argv is not an array of strings";
  if (!noNul(p.cwd)) return "no cwd";
  if (p.workstream !== undefined && (typeof p.workstream !== "string" || hasControl(p.workstream))) return "workstream is not a name";
  if (p.project !== undefined && typeof p.project !== "string") return "project is not a string";
  if (!isObj(p.env) || !Object.entries(p.env).every(([k, v]) => /^[^=\u0000]+$/.test(k) && noNul(v))) return "env is not an object of strings";
  if (typeof p.scrollback !== "string") return "scrollback is not text";
  const notes: string[] = [];
  const pane: SavedPane = { id: p.id, command: [...p.command], argv: p.argv ? [...p.argv] : [], cwd: p.cwd, env: { ...p.env }, scrollback: p.scrollback };
  if (p.workstream !== undefined) pane.workstream = p.workstream;
  if (p.project !== undefined) pane.project = p.project;
  if (p.keep === true) pane.keep = true;
  // A boxed pane stays boxed: a box whose settings are not valid comes back as a plain box.
  if (p.box !== undefined) {
    const b = p.box;
    const network = isObj(b) && typeof b.network === "boolean" ? b.network : undefined;
    const write = isObj(b) && Array.isArray(b.write) && b.write.every((w) => noNul(w)) ? (b.write as string[]) : undefined;
    if (!isObj(b) || (b.network !== undefined && network === undefined) || (b.write !== undefined && write === undefined)) notes.push("its box settings are not valid; boxed with the defaults");
    pane.box = { ...(network === false ? { network } : {}), ...(write?.length ? { write: [...write] } : {}) };
  }
  // A template's resume command is a command like `command`: a bad one resumes nothing.
  if (p.resume === false) pane.resume = false;
  else if (p.resume !== undefined) {
    if (isArgv(p.resume) && p.resume.length > 0) pane.resume = [...p.resume];
    else notes.push("its resume command is not an array of strings; its agent starts fresh");
  }
  // Each feature's section, checked by the feature that keeps it (sections.ts).
  for (const [key, section] of Object.entries(PANE_SECTIONS)) {
    if (p[key] === undefined) continue;
    const r = section.check(p[key]);
    if (r.value !== undefined) Object.assign(pane, { [key]: r.value });
    if (r.note) notes.push(r.note);
  }
  // Where the pane was is only information (a restore lays out afresh): kept when well-formed.
  const r = p.rect;
  if (isObj(r) && isInt(r.x) && isInt(r.y) && isInt(r.cols) && isInt(r.rows)) pane.rect = { x: r.x, y: r.y, cols: r.cols, rows: r.rows };
  if (pane.scrollback.length > MAX_SCROLLBACK_CHARS) {
    pane.scrollback = pane.scrollback.slice(-MAX_SCROLLBACK_CHARS);
    notes.push(`its text was cut to the last ${MAX_SCROLLBACK_CHARS} characters`);
  }
  // A title is only shown: a bad one is dropped, the pane kept.
  if (p.name !== undefined) {
    if (typeof p.name === "string" && p.name.length <= MAX_TITLE && !hasControl(p.name)) pane.name = p.name;
    else notes.push("its title is not plain text; dropped");
  }
  // A pane's name is a name like a tab's: a bad one is dropped, the pane kept.
  if (p.label !== undefined) {
    if (savedNameProblem(p.label, "label")) notes.push("its name is not a valid name; dropped");
    else pane.label = p.label as string;
  }
  return { pane, note: notes.length ? notes.join("; ") : undefined };
}

function checkTab(t: unknown, where: string, note: (m: string) => void): SavedTab | string {
  if (!isObj(t)) return "not an object";
  // An empty tab name or project (older saves wrote them) means none.
  if (t.name !== undefined && t.name !== "") {
    const bad = savedNameProblem(t.name, "name");
    if (bad) return bad;
  }
  if (t.project !== undefined && t.project !== "") {
    const bad = savedNameProblem(t.project, "project");
    if (bad) return bad;
  }
  if (!Array.isArray(t.panes) || !t.panes.length) return "no panes";
  const seen: number[] = [];
  const badLayout = checkLayout(t.layout, seen);
  if (badLayout) return badLayout;
  if (new Set(seen).size !== seen.length) return "a pane appears twice in the layout";
  const ids = t.panes.map((p: unknown) => (isObj(p) ? p.id : undefined));
  if (new Set(ids).size !== ids.length) return "two panes share an id";
  const panes: SavedPane[] = [];
  for (const [pi, raw] of (t.panes as unknown[]).entries()) {
    const r = checkPane(raw);
    if (typeof r === "string") note(`${where} pane ${pi + 1} left out: ${r}`);
    else {
      if (r.note) note(`${where} pane ${pi + 1}: ${r.note}`);
      panes.push(r.pane);
    }
  }
  // The layout keeps the panes that are both in it and usable.
  let layout: Layout | undefined = cleanLayout(t.layout);
  const usable = new Set(panes.map((p) => p.id));
  const mismatch = seen.length !== ids.length || !seen.every((id) => ids.includes(id));
  if (mismatch) note(`${where}: the layout and the pane list disagree; kept the panes in both`);
  for (const id of seen) if (!usable.has(id) && layout) layout = removePane(layout, id);
  if (!layout) return "none of its panes could be restored";
  const kept = new Set(seen.filter((id) => usable.has(id)));
  const tab: SavedTab = { layout, focused: t.focused, panes: panes.filter((p) => kept.has(p.id)) };
  if (!kept.has(t.focused)) {
    note(`${where}: the focused pane is not in the tab; focused its first`);
    tab.focused = [...kept][0]!;
  }
  if (t.zoomed !== undefined) {
    if (kept.has(t.zoomed)) tab.zoomed = t.zoomed;
    else note(`${where}: the zoomed pane is not in the tab; unzoomed`);
  }
  if (t.name !== undefined) tab.name = t.name;
  if (t.project !== undefined) tab.project = t.project;
  if (isInt(t.id, 1)) tab.id = t.id;
  return tab;
}

function checkWorkspace(w: unknown, where: string, names: Set<string>, note: (m: string) => void): SavedWorkspace | string {
  if (!isObj(w)) return "not an object";
  const bad = savedNameProblem(w.name, "name");
  if (bad) return bad;
  const ww = `${where} ("${w.name}")`;
  if (names.has(w.name.toLowerCase())) return `the name "${w.name}" appears twice`;
  if (!Array.isArray(w.tabs) || w.tabs.length === 0) return "no tabs";
  const tabs: SavedTab[] = [];
  let active = 0;
  for (const [ti, raw] of (w.tabs as unknown[]).entries()) {
    const tt = `workspace "${w.name}" tab ${ti + 1}`;
    const r = checkTab(raw, tt, note);
    if (typeof r === "string") {
      note(`${tt} left out: ${r}`);
      continue;
    }
    if (ti === w.active) active = tabs.length;
    tabs.push(r);
  }
  if (!tabs.length) return "none of its tabs could be restored";
  if (!(isInt(w.active) && w.active < w.tabs.length)) note(`${ww}: active tab ${logValue(w.active)} out of range; the first is active`);
  names.add(w.name.toLowerCase());
  return { ...(isInt(w.id, 1) ? { id: w.id } : {}), name: w.name, active, tabs };
}

/** Check a body (already in the current format): the usable part of it, or why none is. */
export function readBody(b: unknown): BodyCheck {
  if (!isObj(b)) return { fatal: "the body is not an object" };
  if (!Array.isArray(b.workspaces)) return { fatal: "no workspaces" };
  const skipped: string[] = [];
  const note = (m: string) => void skipped.push(m);
  let size = { cols: 80, rows: 24 };
  if (isObj(b.size) && isInt(b.size.cols) && isInt(b.size.rows)) {
    size = clampClientSize(b.size.cols, b.size.rows);
    if (size.cols !== b.size.cols || size.rows !== b.size.rows) note(`screen size ${b.size.cols}×${b.size.rows} is out of range; using ${size.cols}×${size.rows}`);
  } else note("no screen size; using 80×24");
  const workspaces: SavedWorkspace[] = [];
  const names = new Set<string>();
  let current = 0;
  for (const [wi, raw] of (b.workspaces as unknown[]).entries()) {
    const where = `workspace ${wi + 1}`;
    const r = checkWorkspace(raw, where, names, note);
    if (typeof r === "string") {
      note(`${where} left out: ${r}`);
      continue;
    }
    if (wi === b.current) current = workspaces.length;
    workspaces.push(r);
  }
  if (!workspaces.length) {
    const why = skipped.filter((m) => m.includes("left out"));
    return { fatal: why.length ? `nothing in it can be restored (${why.slice(0, 3).join("; ")}${why.length > 3 ? "; …" : ""})` : "it has no workspaces" };
  }
  if (!(isInt(b.current) && b.current < b.workspaces.length)) note(`current workspace ${logValue(b.current)} is out of range; showing the first`);
  // Each feature's section of the body, checked by the feature that keeps it (sections.ts).
  const sections: SavedBodySections = {};
  for (const [key, section] of Object.entries(BODY_SECTIONS)) {
    const v = section.check(b[key], note);
    if (v !== undefined) Object.assign(sections, { [key]: v });
  }
  if (skipped.length > MAX_NOTES) skipped.splice(MAX_NOTES, skipped.length, `and ${skipped.length - MAX_NOTES} more`);
  const n = b.next_ids;
  const next = isObj(n) && isInt(n.pane, 1) && isInt(n.tab, 1) && isInt(n.workspace, 1) ? { pane: n.pane, tab: n.tab, workspace: n.workspace } : undefined;
  return { body: { size, current, workspaces, ...sections, ...(next ? { next_ids: next } : {}) }, skipped };
}

/** The first thing wrong with a body, or undefined when it restores exactly as saved. */
export function checkBody(b: unknown): string | undefined {
  const r = readBody(b);
  return "fatal" in r ? r.fatal : r.skipped[0];
}
