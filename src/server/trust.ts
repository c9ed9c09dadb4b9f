// Whether a connection may send a message (docs/security.md "Grants"): the registry names the grant
// each message needs; a connection on the panes' socket holds its pane's grants (the main socket
// is the person's: control); restrict_connection lowers them. Person verbs never travel on a pane's
// socket, nor on a restricted connection, and on the main socket the sender's ancestry must be
// outside every pane too (an extra layer: it proves nothing alone). Below control, the panes and
// workspaces a message names must be in the caller's scope: `self` its own pane and the panes it
// created, `workspace` its workspace.
import type { MessageEntry } from "../messages/types";
import type { Session } from "../model/session";
import { paneWhere, tabWhere, workspaceNamed } from "../model/session-lookups";
import { tabByRef } from "../model/session-lookups";
import { panesOf } from "../model/layout";
import { WsError } from "../protocol/errors";
import { GRANT_MEANING, allows, type GrantLevel } from "../protocol/grants";
import type { GrantService } from "../features/grants/service";
import { personRefusal } from "../features/approvals/peer";
import { peerPid } from "../platform";
import { PANE_KEY_VAR, environValue } from "./pane-identity";

/** Fields that name a pane, one each. */
const PANE_FIELDS = ["pane", "with", "beside"] as const;

export interface TrustContext {
  session: Session;
  grants: GrantService | undefined;
  connection: unknown;
  /** The pane whose socket the line came on (undefined: the main socket). */
  pane: number | undefined;
  /** The live pane a pane key names, where panes carry keys (the panes' shared socket). */
  paneOfKey?: (key: string) => number | undefined;
}

function forbidden(message: string, grant: string, command: string | undefined = "ws pane grants"): WsError {
  return new WsError(message, "forbidden", { grant, ...(command ? { command } : {}) });
}

/** Why `entry` may not be sent on this connection, or undefined when it may. */
export async function trustRefusal(entry: MessageEntry, params: Record<string, unknown>, t: TrustContext): Promise<WsError | undefined> {
  if (entry.grant === "person") {
    if (t.pane !== undefined)
      return forbidden(`refused: ${entry.type} is the person's, and this came from ws pane ${t.pane} (on the panes' socket); send it from the attached client or a terminal outside ws`, "person", undefined);
    if (t.grants?.isRestricted(t.connection)) return forbidden(`refused: ${entry.type} is the person's, and this connection gave up authority (restrict_connection)`, "person", undefined);
    return (await personRefusal(t.connection, t.session.panes, entry.type)) ?? keyRefusal(entry.type, t);
  }
  const level: GrantLevel = t.grants ? t.grants.connectionLevel(t.connection, t.pane) : "control";
  const who = t.pane !== undefined ? `pane ${t.pane}` : "this connection";
  if (!allows(level, entry.grant))
    return forbidden(`refused: ${entry.type} needs the ${entry.grant} grant, and ${who} has ${level} (${GRANT_MEANING[level]}); only the person raises grants (ws pane grant)`, entry.grant);
  if (level === "control" || entry.scope === "any" || !t.grants) return undefined;
  return scopeRefusal(entry, params, level, t);
}

/** A process that left its pane's tree (setsid -f, a double fork, a server of its own) and named
 * the main socket still carries its pane's key in the environment it started with: refused. (A
 * program can drop the variable for a child; this closes the easy way, as the tree walk does.) */
function keyRefusal(verb: string, t: TrustContext): WsError | undefined {
  if (!t.paneOfKey) return undefined;
  const pid = peerPid((t.connection as { socket?: { fd?: number } } | undefined)?.socket?.fd);
  const key = pid === undefined ? undefined : environValue(pid, PANE_KEY_VAR);
  const pane = key ? t.paneOfKey(key) : undefined;
  if (pane === undefined) return undefined;
  return forbidden(`refused: ${verb} is the person's, and the process that sent it (pid ${pid}) started in ws pane ${pane} (it carries that pane's key); send it from the attached client or a terminal outside ws`, "person", undefined);
}

/** Below control: each pane, tab and workspace the message names must be the caller's. */
function scopeRefusal(entry: MessageEntry, params: Record<string, unknown>, level: GrantLevel, t: TrustContext): WsError | undefined {
  const grants = t.grants!;
  const session = t.session;
  const caller = t.pane;
  const own = caller !== undefined ? grants.workspaceOf(caller) : undefined;
  const paneOk = (pane: number): boolean => {
    if (caller === undefined) return false; // a restricted main-socket connection has no pane of its own
    if (!session.panes.has(pane)) return true; // no such pane: the handler says so
    if (level === "workspace") return paneWhere(session, pane)?.ws.name === own || grants.inSelfScope(caller, pane);
    return grants.inSelfScope(caller, pane);
  };
  const wsOk = (name: string): boolean => (level === "workspace" && own !== undefined && name === own) || !workspaceExists(session, name); // none: the handler says so
  /** The grant that would reach it: a pane of the caller's own workspace needs workspace, else control. */
  const needed = (pane?: number) => (level === "self" && pane !== undefined && own !== undefined && paneWhere(session, pane)?.ws.name === own ? "workspace" : "control");
  const refuse = (what: string, pane?: number) =>
    forbidden(
      `refused: ${entry.type} on ${what}: ${caller !== undefined ? `pane ${caller}` : "this connection"} has ${level}, which reaches ${level === "workspace" ? "its own workspace" : level === "self" ? "its own pane and the panes it created" : "its own pane"} only`,
      needed(pane),
    );
  let named = false;
  const panes: number[] = [];
  for (const f of PANE_FIELDS) if (Object.hasOwn(entry.fields, f) && typeof params[f] === "number") panes.push(params[f] as number);
  if (Array.isArray(params.panes)) for (const p of params.panes) if (typeof p === "number") panes.push(p);
  // agent_send's `to`: a pane by its id; a tab or workstream name reaches past one pane.
  if (typeof params.to === "string" && entry.type === "agent_send") {
    if (!/^\d+$/.test(params.to)) return refuse(`"${params.to}" (name the agent's pane by its id)`);
    panes.push(Number(params.to));
  }
  for (const p of panes) {
    named = true;
    if (!paneOk(p)) return refuse(`pane ${p}`, p);
  }
  if (Object.hasOwn(entry.fields, "tab") && params.tab !== undefined) {
    named = true;
    const ws = typeof params.tab === "number" ? tabWhere(session, params.tab)?.ws : tabOfName(session, params);
    if (ws && !wsOk(ws.name) && !tabIsOwn(grants, caller, session, params)) return refuse(`tab ${params.tab}`);
  }
  if (Object.hasOwn(entry.fields, "workspace") && typeof params.workspace === "string") {
    named = true;
    if (!wsOk(params.workspace)) return refuse(`workspace "${params.workspace}"`);
  }
  if (named) return undefined;
  if (entry.scope === "all") return refuse("every pane (name a pane or workspace of its own)");
  // It names nothing: it acts on the focused pane (or the current workspace).
  const ws = session.workspaces[session.current];
  const focused = ws?.tabs[ws.active]?.focused;
  if (focused === undefined) return undefined;
  return paneOk(focused) ? undefined : refuse(`the focused pane ${focused} (name a pane of its own)`, focused);
}

function workspaceExists(session: Session, name: string): boolean {
  try {
    workspaceNamed(session, name);
    return true;
  } catch {
    return false;
  }
}

function tabOfName(session: Session, params: Record<string, unknown>) {
  try {
    const ws = typeof params.workspace === "string" ? workspaceNamed(session, params.workspace) : session.workspaces[session.current];
    if (!ws) return undefined;
    tabByRef(session, ws, String(params.tab));
    return ws;
  } catch {
    return undefined; // no such tab: the handler says so
  }
}

/** At self: a tab named by id whose panes are all the caller's. */
function tabIsOwn(grants: GrantService, caller: number | undefined, session: Session, params: Record<string, unknown>): boolean {
  if (caller === undefined || typeof params.tab !== "number") return false;
  const at = tabWhere(session, params.tab);
  return !!at && panesOf(at.tab.layout).every((p) => grants.inSelfScope(caller, p));
}
