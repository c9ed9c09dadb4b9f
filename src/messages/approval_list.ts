// approval_list: what waits for a person, oldest first (ws inbox).
import type { QuestionService } from "../features/approvals/questions";
import type { ApprovalService } from "../features/approvals/service";
import { defineMessage, replyTyped } from "./types";

export default defineMessage({
  type: "approval_list",
  since: 6,
  grant: "self",
  scope: "any",
  request: true,
  reply: "approvals",
  summary: "The agents' permission requests waiting for a person, oldest first: agent, where its pane is, the tool and what it wants (safe text, long input cut), and how long it has waited.",
  fields: {},
  replyFields: {
    approvals: replyTyped<ReturnType<ApprovalService["view"]>[]>()({
      type: "array",
      description: "One object per request: id, pane, agent, workspace, tab, tab_name, workstream (where there is one), tool, summary, waited_ms, timeout_ms (left before the hook gives up; none for a prompt seen on an agent's screen, which waits while it is shown)",
    }),
    questions: replyTyped<ReturnType<QuestionService["view"]>[]>()({
      type: "array",
      description: "One object per question (ask), oldest first: id, pane, workspace, tab, tab_name, workstream (where there are), question, choices, waited_ms, timeout_ms (when it has one); ws answer answers it",
    }),
  },
  example: { v: 6, id: 1, type: "approval_list" },
  cli: { path: "inbox", summary: "What waits for you: the agents' permission requests, oldest first (-H HOST… or --all-hosts: several hosts at once, each row naming its host)", view: "inbox" },
  handle(_p, { services }) {
    const approvals = services.get("approvals");
    const now = Date.now();
    const questions = services.get("questions");
    return { type: "approvals", approvals: approvals ? approvals.list().map((a) => approvals.view(a, now)) : [], questions: questions ? questions.list().map((q) => questions.view(q, now)) : [] };
  },
});
