// The save file: a one-line JSON header (format, version, length and SHA-256 of the body), then the
// body as JSON. Reading checks every part before anything is used: a truncated, corrupt or newer
// save is refused whole; a bad workspace, tab or pane in a sound file is left out (validate.ts).
// docs/sessions.md describes the format and how a new version upgrades old saves.
import type { Layout } from "../../model/layout";
import { logValue, safeLine } from "../../safe-text";
import { readBody } from "./validate";
import type { SavedBodySections, SavedPaneSections } from "./sections";

export type { SavedAgent, SavedPrompt } from "../agents/saved";
export type { SavedWorkstream } from "../workstreams/saved";

export { checkBody } from "./validate";

export const FORMAT = "ws-session";
/** The body version this build writes. Bump it with a migration in MIGRATIONS (docs/sessions.md). */
export const FORMAT_VERSION = 1;

export interface SavedRect {
  x: number;
  y: number;
  cols: number;
  rows: number;
}

/** A saved pane: the model's record of it, and each feature's section (sections.ts: grants, agent, prompts). */
export interface SavedPane extends SavedPaneSections {
  /** The pane's id in the server that saved it: links the layout to this record, and a restore at
   * start gives the pane this id again. */
  id: number;
  /** The command as asked for; empty means the user's shell (a restore starts a fresh one). */
  command: string[];
  /** What ran (the shell resolved), for people reading the file. */
  argv: string[];
  /** The program's working directory when saved (its current one where the OS tells us). */
  cwd: string;
  /** The pane's title (what its program named it), shown until the restarted program sets one. */
  name?: string;
  workstream?: string;
  /** The name pane_rename gave it (its label whatever runs). */
  label?: string;
  /** The pane stays after its program exits (`keep`). */
  keep?: boolean;
  /** The pane runs in a box (src/model/box.ts), and how: a restore boxes it again. */
  box?: { network?: boolean; write?: string[] };
  /** Its template's `resume`: the argv that resumes its agent ({session} is the id), or false: never. */
  resume?: string[] | false;
  /** The project of the pane's tab (the tab's `project` is what a restore uses). */
  project?: string;
  /** Environment ws set for this pane beyond the server's own (WS_WORKSTREAM, …), not WS_PANE_ID. */
  env: Record<string, string>;
  /** Where the pane's program saw itself when saved (informational; a restore recomputes it). */
  rect?: SavedRect;
  /** The pane's normal-screen scrollback and screen as text, wrapped rows joined, "\n" between lines. */
  scrollback: string;
}

export interface SavedTab {
  /** The tab's id (absent in older saves); a restore at start keeps it. */
  id?: number;
  name?: string;
  project?: string;
  /** Pane ids as in `panes`. */
  layout: Layout;
  focused: number;
  zoomed?: number;
  panes: SavedPane[];
}

export interface SavedWorkspace {
  /** The workspace's id (absent in older saves); a restore at start keeps it. */
  id?: number;
  name: string;
  /** Index of the active tab. */
  active: number;
  tabs: SavedTab[];
}

/** A workstream (ws new, ws review): its tab is the one whose panes carry its WS_WORKSTREAM. */

/** A save's body: the model's workspaces, and each feature's section (sections.ts: workstreams). */
export interface SaveBody extends SavedBodySections {
  /** The screen size the layout was laid out for. */
  size: { cols: number; rows: number };
  /** Index of the workspace on screen. */
  current: number;
  workspaces: SavedWorkspace[];
  /** The next ids the saving server would have given (absent in older saves): a restore starts
   * its counters there, so ids of panes closed before the save are not given out again. */
  next_ids?: { pane: number; tab: number; workspace: number };
}

export interface SaveHeader {
  format: typeof FORMAT;
  version: number;
  saved_at: string;
  /** The ws that wrote it: "0.1.0 (build)". */
  ws: string;
  server: string;
  /** Counts, so `ws session info` and `ws doctor` need not parse the body. */
  workspaces: number;
  tabs: number;
  panes: number;
  bytes: number;
  sha256: string;
}

export type ProblemKind = "truncated" | "corrupt" | "newer";

/** Why a save can't be used. */
export class SaveProblem extends Error {
  constructor(
    readonly kind: ProblemKind,
    message: string,
  ) {
    super(message);
  }
}

function sha256(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

export function counts(body: SaveBody): { workspaces: number; tabs: number; panes: number } {
  let tabs = 0;
  let panes = 0;
  for (const w of body.workspaces) for (const t of w.tabs) tabs++, (panes += t.panes.length);
  return { workspaces: body.workspaces.length, tabs, panes };
}

/** Stands for a pane's scrollback while the (small) structure is stringified. */
const TEXT_SLOT = "\u0000ws-scrollback\u0000";
const TEXT_SLOT_JSON = JSON.stringify(TEXT_SLOT);

/** A scrollback text as it appears in the body: a JSON string, UTF-8. */
export function encodeText(text: string): Uint8Array {
  return Buffer.from(JSON.stringify(text));
}

/** The body's structure as JSON, cut where each pane's scrollback goes: `pieces[i]` comes before
 * `panes[i]`'s text, and the last piece after all of them. */
export function bodyPieces(body: SaveBody): { pieces: Uint8Array[]; panes: SavedPane[] } {
  const panes: SavedPane[] = [];
  const skeleton = {
    ...body,
    workspaces: body.workspaces.map((w) => ({
      ...w,
      tabs: w.tabs.map((t) => ({ ...t, panes: t.panes.map((p) => (panes.push(p), { ...p, scrollback: TEXT_SLOT })) })),
    })),
  };
  const pieces = JSON.stringify(skeleton).split(TEXT_SLOT_JSON);
  if (pieces.length !== panes.length + 1) throw new Error("scrollback placeholder count mismatch");
  return { pieces: pieces.map((p) => Buffer.from(p)), panes };
}

/** The header line for a body of `bytes` bytes whose SHA-256 is `sha256` (hex). */
export function headerLine(body: SaveBody, meta: { ws: string; server: string; savedAt?: Date }, bytes: number, sha256: string): Uint8Array {
  const header: SaveHeader = {
    format: FORMAT,
    version: FORMAT_VERSION,
    saved_at: (meta.savedAt ?? new Date()).toISOString(),
    ws: meta.ws,
    server: meta.server,
    ...counts(body),
    bytes,
    sha256,
  };
  return Buffer.from(JSON.stringify(header) + "\n");
}

/** The file's bytes for a body, as chunks to write in order (the daemon streams its saves
 * instead: save-writer.ts). */
export function encodeChunks(body: SaveBody, meta: { ws: string; server: string; savedAt?: Date }, encode: (text: string, pane: SavedPane) => Uint8Array = encodeText): Uint8Array[] {
  const { pieces, panes } = bodyPieces(body);
  const parts: Uint8Array[] = [];
  const hasher = new Bun.CryptoHasher("sha256");
  let bytes = 0;
  const add = (b: Uint8Array) => {
    parts.push(b);
    hasher.update(b);
    bytes += b.length;
  };
  for (let i = 0; i < pieces.length; i++) {
    add(pieces[i]!);
    if (i < panes.length) add(encode(panes[i]!.scrollback, panes[i]!));
  }
  return [headerLine(body, meta, bytes, hasher.digest("hex")), ...parts, Buffer.from("\n")];
}

/** The file's bytes for a body, in one buffer. */
export function encode(body: SaveBody, meta: { ws: string; server: string; savedAt?: Date }): Uint8Array {
  return Buffer.concat(encodeChunks(body, meta));
}

/** Read just the header line (cheap: for info and doctor). */
export function decodeHeader(bytes: Uint8Array): { header: SaveHeader; bodyStart: number } {
  if (bytes.length === 0) throw new SaveProblem("truncated", "the file is empty");
  const nl = bytes.indexOf(10);
  if (nl < 0) throw new SaveProblem(looksLikeHeaderStart(bytes) ? "truncated" : "corrupt", looksLikeHeaderStart(bytes) ? "the file ends inside its header" : "no header line: not a ws session file");
  let header: SaveHeader;
  try {
    header = JSON.parse(Buffer.from(bytes.subarray(0, nl)).toString("utf8"));
  } catch (e) {
    throw new SaveProblem("corrupt", `its header is not JSON (${safeLine((e as Error).message)})`);
  }
  if (!header || typeof header !== "object" || header.format !== FORMAT) throw new SaveProblem("corrupt", `not a ${FORMAT} file (format ${logValue((header as { format?: unknown } | null)?.format)})`);
  if (!Number.isSafeInteger(header.version) || header.version < 1) throw new SaveProblem("corrupt", `bad format version ${logValue(header.version)}`);
  // Shown by `ws session info`, `ws doctor` and the log: never raw text from a file.
  for (const k of ["ws", "server", "saved_at"] as const) {
    const v: unknown = header[k];
    header[k] = typeof v === "string" ? safeLine(v) : v === undefined ? "unknown" : logValue(v);
  }
  if (header.version > FORMAT_VERSION)
    throw new SaveProblem("newer", `it was written by a newer ws (${header.ws}) in save format ${header.version}; this ws reads formats 1 to ${FORMAT_VERSION}`);
  if (!Number.isSafeInteger(header.bytes) || header.bytes < 0 || typeof header.sha256 !== "string") throw new SaveProblem("corrupt", "its header has no body length or checksum");
  if (![header.workspaces, header.tabs, header.panes].every((n) => Number.isSafeInteger(n) && n >= 0)) throw new SaveProblem("corrupt", "its header's counts are not numbers");
  return { header, bodyStart: nl + 1 };
}

function looksLikeHeaderStart(bytes: Uint8Array): boolean {
  const start = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 32))).toString("utf8");
  return `{"format":"${FORMAT}"`.startsWith(start) || start.startsWith(`{"format":"${FORMAT}"`);
}

/**
 * Check and parse a whole file. Throws SaveProblem when none of it can be used; else returns the
 * usable body in the current format, and notes on the parts left out (validate.ts).
 */
export function decode(bytes: Uint8Array): { header: SaveHeader; body: SaveBody; skipped: string[] } {
  const { header, bodyStart } = decodeHeader(bytes);
  let end = bytes.length;
  if (end > bodyStart && bytes[end - 1] === 10) end--;
  const have = end - bodyStart;
  if (have < header.bytes) throw new SaveProblem("truncated", `it is cut short: ${have} of ${header.bytes} body bytes`);
  if (have > header.bytes) throw new SaveProblem("corrupt", `it has ${have - header.bytes} bytes more than its header says`);
  const bodyBytes = bytes.subarray(bodyStart, end);
  if (sha256(bodyBytes) !== header.sha256) throw new SaveProblem("corrupt", "its checksum does not match (the file was changed or damaged)");
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(bodyBytes).toString("utf8"));
  } catch (e) {
    throw new SaveProblem("corrupt", `its body is not JSON (${safeLine((e as Error).message)})`);
  }
  let body = raw;
  for (let v = header.version; v < FORMAT_VERSION; v++) {
    const up = MIGRATIONS[v];
    if (!up) throw new SaveProblem("corrupt", `no upgrade from save format ${v}`);
    body = up(body);
  }
  const checked = readBody(body);
  if ("fatal" in checked) throw new SaveProblem("corrupt", checked.fatal);
  return { header, body: checked.body, skipped: checked.skipped };
}

/**
 * Upgrades: MIGRATIONS[n] turns a format-n body into a format-(n+1) body. Reading applies them in
 * order, so every old save reaches the current format. Never change a past entry; add the next.
 */
export const MIGRATIONS: Record<number, (body: unknown) => unknown> = {};
