// question_answer: a person answers a question a pane or script asked (ws answer). A person verb
// (server/trust.ts): refused on every pane's socket, and on the main socket from a process inside
// a ws pane, as approval_answer is (an agent must not answer its own or another's question).
import { WsError } from "../protocol/errors";
import { defineMessage } from "./types";

export default defineMessage({
  type: "question_answer",
  since: 6,
  grant: "person",
  request: true,
  reply: "question_answered",
  summary:
    "Answer a waiting question (ask): with choices, one of them (its text, or its number from 1); without, any line. The asker's ws ask prints it. A person verb: refused on the panes' socket and from a process inside a ws pane.",
  fields: {
    question: { type: "integer", required: true, description: "The question's id (ws inbox)" },
    answer: { type: "string", required: true, description: "The answer: a choice (or its number), or the line to give" },
  },
  replyFields: {
    question: { type: "integer", description: "The question answered" },
    pane: { type: "integer", optional: true, description: "The pane that asked (absent: a script outside ws)" },
    answer: { type: "string", description: "The answer given" },
  },
  errors: ["question_not_found", "forbidden", "invalid_params", "unsupported"],
  example: { v: 6, id: 1, type: "question_answer", question: 2, answer: "yes" },
  cli: { path: "answer", summary: "Answer a waiting question (ws inbox lists them): ws answer ID yes", args: ["question", "answer"], view: "questionAnswered" },
  handle(p, { services }) {
    const questions = services.get("questions");
    if (!questions) throw new WsError("this build has no inbox for questions", "unsupported");
    const { question: q, answer } = questions.answer(p.question, p.answer);
    return { type: "question_answered", question: q.id, ...(q.pane !== undefined ? { pane: q.pane } : {}), answer };
  },
});
