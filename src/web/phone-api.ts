// The phone page's JSON API: what it shows, read from the server with the same messages the CLI
// sends (agent_list, approval_list, agent_queue_list, pane_read), and its actions: an answer to an
// approval, sent as approval_answer with `by: "web"` so the inbox records where it came from, and
// an answer to a `ws ask` question (question_answer).
import { request, type ReplyObject } from "../client/request";

const MAX_BODY = 4096;

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function call(socketPath: string, msg: Record<string, unknown>): Promise<ReplyObject> {
  const r = await request(socketPath, { v: 6, id: 1, ...msg });
  if (r.type === "error") throw new ApiError(typeof r.message === "string" ? r.message : "refused", r.code === "approval_not_found" || r.code === "question_not_found" || r.code === "pane_not_found" ? 404 : 409);
  return r;
}

export async function phoneState(socketPath: string): Promise<unknown> {
  const [agents, inbox, queue, panes] = await Promise.all(["agent_list", "approval_list", "agent_queue_list", "pane_list"].map((type) => call(socketPath, { type })));
  const paneRows = Array.isArray(panes!.panes) ? (panes!.panes as Record<string, unknown>[]) : [];
  return {
    agents: agents!.agents ?? [],
    approvals: inbox!.approvals ?? [],
    questions: inbox!.questions ?? [],
    queue: queue!.prompts ?? [],
    panes: paneRows.map((p) => ({ pane: p.pane, workspace: p.workspace, tab_name: p.tab_name, label: p.label })),
  };
}

export async function paneScreen(socketPath: string, pane: string | null): Promise<unknown> {
  if (!pane || !/^\d{1,9}$/.test(pane)) throw new ApiError("pane must be a pane's id", 400);
  const r = await call(socketPath, { type: "pane_read", pane: Number(pane), source: "visible" });
  return { pane: r.pane, text: r.text };
}

/** A POST's JSON object body, at most MAX_BODY long. */
export async function jsonBody(req: Request): Promise<Record<string, unknown>> {
  if (!(req.headers.get("content-type") ?? "").startsWith("application/json")) throw new ApiError("send JSON", 415);
  const text = await req.text();
  if (text.length > MAX_BODY) throw new ApiError("too long", 413);
  try {
    const v = JSON.parse(text);
    if (v && typeof v === "object" && !Array.isArray(v)) return v;
  } catch {}
  throw new ApiError("send a JSON object", 400);
}

export async function answerApproval(socketPath: string, req: Request): Promise<unknown> {
  const body = await jsonBody(req);
  if (!Number.isSafeInteger(body.approval) || (body.behavior !== "allow" && body.behavior !== "deny") || (body.message !== undefined && typeof body.message !== "string"))
    throw new ApiError("send {approval: ID, behavior: allow|deny, message?: TEXT}", 400);
  return call(socketPath, { type: "approval_answer", approval: body.approval, behavior: body.behavior, ...(body.message !== undefined ? { message: body.message } : {}), by: "web" });
}

/** Body: {question: ID, answer: TEXT}; sent as question_answer, which checks the answer against the choices. */
export async function answerQuestion(socketPath: string, req: Request): Promise<unknown> {
  const body = await jsonBody(req);
  if (!Number.isSafeInteger(body.question) || typeof body.answer !== "string") throw new ApiError("send {question: ID, answer: TEXT}", 400);
  return call(socketPath, { type: "question_answer", question: body.question, answer: body.answer });
}
