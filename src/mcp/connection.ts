// Each tool call's connection to the ws server: opened on the socket the agent's pane gave it
// (WS_SOCKET, where the server knows the caller as its pane), it first gives up authority with restrict_connection, to what the pane may do now (pane_grants)
// or less (--grants), and only then carries the tool's message. A restricted connection never
// uses a person verb, so `ws mcp` can never do more than its pane may, whichever socket it is on.
// A connection per call: the server closes an idle one after 2 s, and a new one would not be
// restricted.
import { KeptConnection } from "../client/kept-connection";
import { REPLY_TIMEOUT_MS, type ReplyObject } from "../client/request";
import { type GrantLevel, lowest } from "../protocol/grants";
import { VERSION } from "../protocol/version";

export class Refused extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function checked(reply: ReplyObject, want: string): ReplyObject {
  if (reply.type === want) return reply;
  const message = typeof reply.message === "string" ? reply.message : `unexpected reply ${reply.type}`;
  throw new Refused(message, typeof reply.code === "string" ? reply.code : "internal");
}

export interface CallOptions {
  socket: string;
  /** The most the connection may do (--grants): never more than the pane may. */
  ceiling: GrantLevel;
  /** The calling pane (WS_PANE_ID), whose grants bound the connection on any socket. */
  pane?: number;
}

/** Send one message on a fresh restricted connection and return its reply (errors thrown as Refused). */
export async function restrictedCall(o: CallOptions, msg: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<ReplyObject> {
  const conn = new KeptConnection(o.socket);
  const abort = () => conn.close();
  signal?.addEventListener("abort", abort, { once: true });
  try {
    let level = o.ceiling;
    if (o.pane !== undefined) {
      const g = checked(await conn.request({ v: VERSION, type: "pane_grants", pane: o.pane }, REPLY_TIMEOUT_MS), "pane_grants");
      level = lowest(level, g.level as GrantLevel);
    }
    checked(await conn.request({ v: VERSION, type: "restrict_connection", level }, REPLY_TIMEOUT_MS), "restricted");
    const reply = await conn.request({ v: VERSION, ...msg }, timeoutMs);
    if (reply.type === "error") checked(reply, "never");
    return reply;
  } finally {
    signal?.removeEventListener("abort", abort);
    conn.close();
  }
}
