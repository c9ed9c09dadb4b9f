// ask: a program in a pane, or a script, asks the person a question and waits for the answer
// (`ws ask`, TUIOS's ask-human). Only `report` is needed: asking reads and changes no pane; its one
// effect is a bounded inbox row, labelled with the pane whose socket it came on (never a pane the
// asker names), and the answer goes back to this connection alone, as an approval's does. So a
// boxed agent, or an agent's hook, can ask. Answering is the person's (question_answer).
import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";

/** The longest a question may wait, in ms (24 h). */
export const MAX_ASK_TIMEOUT_MS = 86_400_000;

export default defineMessage({
  type: "ask",
  since: 6,
  grant: "report",
  // It names no pane: its pane is the socket's it came on.
  scope: "any",
  request: true,
  longRunning: true,
  reply: "answer",
  summary:
    "Ask the person a question and wait for the answer: it joins the inbox (ws inbox, the Dashboard's Needs you rows, the `question_asked` event), labelled with the pane whose socket it came on, and the reply carries the answer a person gives (question_answer). With choices the answer is one of them; without, any line the person types. At `timeout` it ends with the `timeout` error (the CLI exits 124); closing the connection withdraws it, and so does its pane closing. Held in the server only: a restart forgets it.",
  fields: {
    question: { type: "string", required: true, description: "The question (one line is shown, as safe text; at most 2000 characters)" },
    choice: { type: "string[]", default: [], description: "The answers offered, in order (at most 9, each at most 200 characters); none: the person types one" },
    timeout: { type: "integer", default: 0, min: 0, max: MAX_ASK_TIMEOUT_MS, description: "Give up after this many ms (0: wait until answered)" },
  },
  replyFields: {
    question: { type: "integer", description: "The question's id (as ws inbox showed it)" },
    answer: { type: "string", description: "The person's answer: one of the choices, or the line typed" },
  },
  errors: ["timeout", "limit_exceeded", "invalid_params", "pane_exited", "unsupported"],
  example: { v: 6, id: 1, type: "ask", question: "Deploy to staging?", choice: ["yes", "no"], timeout: 600000 },
  cli: { path: "ask", summary: "Ask the person a question and print the answer (exit 124 at --timeout): ws ask \"Deploy?\" --choice yes --choice no", args: ["question"], repeat: ["choice"], view: "answer" },
  async handle(p, { services, signal, callerPane }) {
    const questions = services.get("questions");
    if (!questions) throw new WsError("this build has no inbox for questions", "unsupported");
    let id = 0;
    const end = await questions.ask({ ...(callerPane !== undefined ? { pane: callerPane } : {}), question: p.question, choices: p.choice, timeoutMs: p.timeout, signal, onId: (n) => (id = n) });
    if (end.by === "ws") return { type: "answer", question: id, answer: end.answer };
    if (end.by === "timeout") throw new WsError(`no answer to question ${id} in ${p.timeout} ms`, "timeout");
    throw new WsError(`question ${id} ended unanswered: its pane closed`, "pane_exited");
  },
});
