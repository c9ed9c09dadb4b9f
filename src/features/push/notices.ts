// What a notification says for each event it is sent on. By default nothing the agent or a
// program wrote goes in it (a command line may hold a token, a question a path): the kind of
// event, the pane and the program in it. keys.toml's push.details = true adds the text, made safe.
import type { ModelEvent } from "../../model/events";
import { notificationText } from "../../protocol/notification";
import type { PushEvent } from "./config";

export interface Notice {
  event: PushEvent;
  title: string;
  body: string;
  /** Same tag: the newer replaces the older on a phone (one per pane and kind). */
  tag: string;
  pane?: number;
}

const MAX_DETAIL = 200;
const detail = (text: unknown) => (typeof text === "string" && text ? `: ${notificationText(text).slice(0, MAX_DETAIL)}` : "");

/** The notice for `e`, or undefined when it sends none. `program`: what runs in a pane (claude, …). */
export function noticeFor(e: ModelEvent, program: (pane: number) => string | undefined, details: boolean): Notice | undefined {
  const who = (pane: number | undefined, name = pane === undefined ? undefined : program(pane)) =>
    pane === undefined ? "a script" : `pane ${pane}${name ? ` (${notificationText(name).slice(0, 40)})` : ""}`;
  if (e.type === "approval_requested")
    return { event: "approval", title: "ws: approval waiting", body: `${who(e.pane, typeof e.agent === "string" ? e.agent : undefined)} asks to use ${notificationText(e.tool)}${details ? detail(e.summary) : ""}`, tag: `approval-${e.pane}`, pane: e.pane };
  if (e.type === "agent_attention" && (e.status === "blocked" || e.status === "done"))
    return {
      event: e.status,
      title: e.status === "blocked" ? "ws: an agent is waiting for you" : "ws: an agent is done",
      body: `${who(e.pane)} ${e.status === "blocked" ? "is blocked" : "finished its turn"}${details ? detail(e.detail) : ""}`,
      tag: `agent-${e.pane}`,
      pane: e.pane,
    };
  if (e.type === "question_asked")
    return { event: "question", title: "ws: a question for you", body: `${who(e.pane)} asks${details ? detail(e.question) : " a question"}`, tag: `question-${e.id}`, ...(e.pane !== undefined ? { pane: e.pane } : {}) };
  // A script's own notification (ws notify): its words are what it meant to tell the person.
  if (e.type === "notification")
    return { event: "notify", title: `ws: ${e.title}`.slice(0, 120), body: (e.body ?? (e.pane !== undefined ? who(e.pane) : "")).slice(0, MAX_DETAIL), tag: `notify-${e.pane ?? "script"}`, ...(e.pane !== undefined ? { pane: e.pane } : {}) };
  return undefined;
}
