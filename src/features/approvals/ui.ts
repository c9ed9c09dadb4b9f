// The inbox on the attached terminal: the dashboard's "Needs you" rows (y allows, n denies, Enter
// goes to the pane) and the status line's count. The keys act in the server itself, so they are the
// person's answer (approval_answer's pane guard is for connections).
import type { QuestionService } from "./questions";
import type { ApprovalService } from "./service";

const ago = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`;
};
/** Characters of what the agent wants shown on a row; the rest is folded into "…". */
export const ROW_TEXT = 80;

export interface NeedsYouRow {
  line: string;
  pane: number;
  id: number;
}

/** One row per waiting request, oldest first: agent, where, tool, what (safe text, folded), how long. */
export function needsYouRows(approvals: ApprovalService, now = Date.now()): NeedsYouRow[] {
  return approvals.list().map((a) => {
    const v = approvals.view(a, now);
    const where = [v.workspace, v.tab_name, v.workstream].filter((x) => x !== undefined).join(" / ");
    const what = v.summary.length > ROW_TEXT ? `${v.summary.slice(0, ROW_TEXT - 1)}…` : v.summary;
    return { id: a.id, pane: a.pane, line: `? ${ago(v.waited_ms).padStart(4)}  ${v.agent ?? "agent"}  ${where} (pane ${a.pane})  ${v.tool}: ${what}` };
  });
}

/** The status line's part: "2 need you" (requests and questions waiting), or nothing. */
export function needsYouBadge(waiting: number): string | undefined {
  return waiting ? `? ${waiting} need${waiting === 1 ? "s" : ""} you` : undefined;
}

/** The longest reason typed for a deny that is passed on (approval_answer's own limit). */
const MAX_REASON = 2000;

/**
 * y allows, n denies the request on the selected row; true when the key was one of them. With
 * `ask` (the status line's prompt), n first asks for an optional reason: Enter sends it, Esc
 * leaves the request waiting.
 */
export function answerKey(approvals: ApprovalService, row: NeedsYouRow | undefined, ch: string, ask?: (label: string, submit: (text: string) => void) => void): boolean {
  if (!row || (ch !== "y" && ch !== "n")) return false;
  const answer = (behavior: "allow" | "deny", reason?: string) => {
    try {
      approvals.answer(row.id, behavior, behavior === "deny" ? reason?.trim().slice(0, MAX_REASON) || "Denied in ws" : undefined);
    } catch {
      // answered meanwhile (the agent's own dialog, a timeout): nothing left to do
    }
  };
  if (ch === "y") answer("allow");
  else if (ask) ask("deny: reason (Enter for none) ", (text) => answer("deny", text));
  else answer("deny");
  return true;
}

/** A question's row (ws ask): digits pick a choice, Enter types an answer. */
export interface QuestionRow {
  line: string;
  id: number;
  pane?: number;
}

/** One row per waiting question, oldest first: who asks, where, the question and its numbered
 * choices (all safe text, the question folded). */
export function questionRows(questions: QuestionService, now = Date.now()): QuestionRow[] {
  return questions.list().map((q) => {
    const v = questions.view(q, now);
    const where = [v.workspace, v.tab_name, v.workstream].filter((x) => x !== undefined).join(" / ");
    const from = q.pane !== undefined ? `${where} (pane ${q.pane})` : "a script";
    const text = v.question.length > ROW_TEXT ? `${v.question.slice(0, ROW_TEXT - 1)}…` : v.question;
    const choices = q.choices.length ? q.choices.map((c, i) => `${i + 1} ${c}`).join("  ") : "Enter: type an answer";
    return { id: q.id, ...(q.pane !== undefined ? { pane: q.pane } : {}), line: `? ${ago(v.waited_ms).padStart(4)}  ${from} asks: ${text}  [${choices}]` };
  });
}

/** 1–9 answers the question on the selected row with that choice; true when the key was one. */
export function questionKey(questions: QuestionService, row: QuestionRow | undefined, ch: string): boolean {
  if (!row || !/^[1-9]$/.test(ch)) return false;
  const q = questions.list().find((x) => x.id === row.id);
  if (!q || Number(ch) > q.choices.length) return false;
  try {
    questions.answer(row.id, ch);
  } catch {
    // ended meanwhile (its asker gave up or went): nothing left to do
  }
  return true;
}

/** Enter on a question's row: the person types the answer on the status line (a choice's text or
 * number, or any line when it has none); a wrong one leaves the question waiting. */
export function typeAnswer(questions: QuestionService, row: QuestionRow, ask: (label: string, submit: (text: string) => void) => void): void {
  ask(`answer question ${row.id}: `, (text) => {
    try {
      questions.answer(row.id, text.trim());
    } catch {
      // not one of its choices, or it ended meanwhile: it waits (or is gone) as before
    }
  });
}
