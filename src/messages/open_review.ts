// open_review: lay out a review tab over a worktree the client made (ws review). The same name
// again goes to the open tab, unless fresh replaces it so the agent starts over.
import { WsError } from "../protocol/errors";
import { PANE_START_ERRORS, defineMessage } from "./types";

export default defineMessage({
  type: "open_review",
  since: 3,
  grant: "control",
  request: true,
  reply: "pane",
  summary:
    "Open a review tab (ws review). The client has made the worktree and written its pr.md (beside the worktree's git files); the server lays out the template's panes in the workspace (made if missing), starting its agent. If a tab for the same name is open and fresh is false, it goes to it (when focus) and replies with its focused pane.",
  fields: {
    workspace: { type: "string", name: true, required: true, description: "Workspace for the tab, made if missing" },
    title: { type: "string", name: true, required: true, description: "The tab's name, e.g. `billing#12 Invoice full width`" },
    name: { type: "string", name: true, required: true, description: "Workstream name that identifies the review, e.g. `review-billing-12`" },
    template: { type: "string", required: true, description: "Template that lays out the tab; `review` falls back to the built-in one" },
    repo: { type: "string", required: true, description: "The main clone" },
    dir: { type: "string", required: true, description: "The review's worktree, where panes start" },
    branch: { type: "string", description: "The PR's branch, for PR status" },
    vars: { type: "pairs", default: [], description: "Template placeholders: `pr`, `url`, `context`, `review_command`, …" },
    fresh: { type: "boolean", default: false, description: "Replace an open tab for the same `name`, so the agent starts over" },
    focus: { type: "boolean", default: true, description: "Switch to the tab" },
  },
  replyFields: { pane: { type: "integer", description: "The review agent's pane (the open tab's focused pane when it was open already)" } },
  errors: ["template_not_found", "template_invalid", "unsupported", ...PANE_START_ERRORS],
  example: {
    v: 3,
    type: "open_review",
    workspace: "PR Review",
    title: "billing#12 Invoice",
    name: "review-billing-12",
    template: "review",
    repo: "/code/billing",
    dir: "/wt/billing/review-12",
    branch: "invoice",
    vars: [["pr", "12"], ["review_command", "claude '/review-pr …'"]],
    fresh: false,
    focus: true,
  },
  async handle(p, { services }) {
    const svc = services.get("workstreams");
    if (!svc) throw new WsError("reviews are not supported by this ws build", "unsupported");
    return { type: "pane", ...(await svc.openReview(p)) };
  },
});
