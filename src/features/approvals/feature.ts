// Plugs the inbox into the daemon: the approvals and the questions services, registered by name.
import type { Feature } from "../feature";
import { QuestionService } from "./questions";
import { ApprovalService } from "./service";

export default function approvalsFeature(): Feature {
  let svc: ApprovalService | undefined;
  let questions: QuestionService | undefined;
  return {
    name: "approvals",
    provide(d) {
      svc = new ApprovalService(d.session);
      d.services.provide("approvals", svc);
      questions = new QuestionService(d.session);
      d.services.provide("questions", questions);
    },
    stop() {
      svc?.stop();
      questions?.stop();
    },
  };
}
