// Questions for the person (`ws ask`, TUIOS's ask-human): a program in a pane, or a script, puts
// one in the inbox and waits on its connection. Held in the server only (as approvals are: a
// restart forgets them, and each asker's connection closes with it) until a person answers
// (question_answer: `ws answer`), the asker's time runs out, it goes away (its connection closed),
// or its pane closes. Each is answered exactly once. What is shown of it is safe text: the
// asker's escapes never reach a terminal.
import type { Session } from "../../model/session";
import { WsError } from "../../protocol/errors";
import { safeText } from "../../safe-text";
import { workstreamsOf } from "../workstreams/table";

/** Questions waiting at once; the next ask is refused at once. */
export const MAX_QUESTIONS = 64;
/** A question's text, in characters. */
export const MAX_QUESTION_CHARS = 2000;
/** Choices one question offers (the Dashboard answers with the keys 1 to 9). */
export const MAX_CHOICES = 9;
/** One choice, in characters. */
export const MAX_CHOICE_CHARS = 200;
/** A typed answer (a question without choices), in characters. */
export const MAX_ANSWER_CHARS = 2000;

/** Who ended a question: a person in ws, the asker's time limit, or the asker (or its pane) went. */
export type QuestionEnd = { answer: string; by: "ws" } | { by: "timeout" | "gone" };

export interface Question {
  id: number;
  /** The pane that asked (absent: a script outside ws). */
  pane?: number;
  /** Safe one-line text. */
  text: string;
  /** Safe text each; empty: any answer the person types. */
  choices: string[];
  created: number;
  /** Absent: it waits for as long as its asker does. */
  deadline?: number;
  settle(e: QuestionEnd): void;
}

/** Text from a program made fit for a terminal and one line: controls out, whitespace folded. */
const oneLine = (s: string) => safeText(s.replace(/\s+/g, " ").trim());

/** Why `text` can't be a question or a choice, or undefined. */
function badText(what: string, text: string, max: number): string | undefined {
  if (!oneLine(text)) return `${what} is empty`;
  if (text.length > max) return `${what} is ${text.length} characters; at most ${max}`;
  return undefined;
}

export class QuestionService {
  private pending = new Map<number, Question>();
  private nextId = 1;
  private off: () => void;

  constructor(private session: Session) {
    this.off = session.bus.on((e) => {
      if (e.type === "pane_closed" || e.type === "pane_exited") for (const q of [...this.pending.values()]) if (q.pane === e.pane) this.finish(q, { by: "gone" });
    });
  }

  stop(): void {
    this.off();
    for (const q of [...this.pending.values()]) this.finish(q, { by: "gone" });
  }

  /** Oldest first. */
  list(): Question[] {
    return [...this.pending.values()];
  }

  get count(): number {
    return this.pending.size;
  }

  /** Ask: resolves when a person answers, at `timeoutMs` (0: never), or when `signal` aborts. */
  ask(o: { pane?: number; question: string; choices: string[]; timeoutMs: number; signal?: AbortSignal; onId?: (id: number) => void }): Promise<QuestionEnd> {
    const bad = badText("the question", o.question, MAX_QUESTION_CHARS);
    if (bad) throw new WsError(bad, "invalid_params", { param: "question" });
    if (o.choices.length > MAX_CHOICES) throw new WsError(`${o.choices.length} choices; at most ${MAX_CHOICES}`, "invalid_params", { param: "choice" });
    for (const c of o.choices) {
      const why = badText(`choice "${oneLine(c).slice(0, 40)}"`, c, MAX_CHOICE_CHARS);
      if (why) throw new WsError(why, "invalid_params", { param: "choice" });
    }
    const choices = o.choices.map(oneLine);
    if (new Set(choices).size !== choices.length) throw new WsError("two choices read the same", "invalid_params", { param: "choice" });
    if (this.pending.size >= MAX_QUESTIONS) throw new WsError(`${MAX_QUESTIONS} questions are waiting already`, "limit_exceeded", { limit: MAX_QUESTIONS });
    if (o.signal?.aborted) return Promise.resolve({ by: "gone" });
    const now = Date.now();
    const { promise, resolve } = Promise.withResolvers<QuestionEnd>();
    const q: Question = {
      id: this.nextId++,
      ...(o.pane !== undefined ? { pane: o.pane } : {}),
      text: oneLine(o.question),
      choices,
      created: now,
      ...(o.timeoutMs > 0 ? { deadline: now + o.timeoutMs } : {}),
      settle: resolve,
    };
    this.pending.set(q.id, q);
    o.onId?.(q.id);
    const timer = o.timeoutMs > 0 ? setTimeout(() => this.finish(q, { by: "timeout" }), o.timeoutMs) : undefined;
    const onAbort = () => this.finish(q, { by: "gone" });
    o.signal?.addEventListener("abort", onAbort, { once: true });
    promise.finally(() => {
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    });
    this.session.bus.emit({ type: "question_asked", id: q.id, ...(q.pane !== undefined ? { pane: q.pane } : {}), question: q.text, choices: q.choices });
    return promise;
  }

  /** A person's answer: one of the choices (its text, or its number from 1), or any text when it
   * has none. Throws question_not_found when it no longer waits, invalid_params for a wrong answer. */
  answer(id: number, given: string): { question: Question; answer: string } {
    const q = this.pending.get(id);
    if (!q)
      throw new WsError(`no question ${id} is waiting (answered, given up, or from before a restart)`, "question_not_found", {
        available: [...this.pending.keys()],
        command: "ws inbox",
      });
    let answer: string;
    if (q.choices.length) {
      const byNumber = /^[1-9]$/.test(given) ? q.choices[Number(given) - 1] : undefined;
      const chosen = q.choices.includes(given) ? given : byNumber;
      if (chosen === undefined) throw new WsError(`question ${id} takes one of its choices`, "invalid_params", { param: "answer", accepted: q.choices });
      answer = chosen;
    } else {
      if (given.length > MAX_ANSWER_CHARS) throw new WsError(`the answer is ${given.length} characters; at most ${MAX_ANSWER_CHARS}`, "invalid_params", { param: "answer" });
      answer = oneLine(given);
      if (!answer) throw new WsError("the answer is empty", "invalid_params", { param: "answer" });
    }
    this.finish(q, { answer, by: "ws" });
    return { question: q, answer };
  }

  private finish(q: Question, e: QuestionEnd): void {
    if (!this.pending.delete(q.id)) return; // answered once only
    q.settle(e);
    this.session.bus.emit({ type: "question_answered", id: q.id, ...(q.pane !== undefined ? { pane: q.pane } : {}), by: e.by, ...("answer" in e ? { answer: e.answer } : {}) });
  }

  /** The public fields of one question, with where its pane is. */
  view(q: Question, now = Date.now()) {
    const at = q.pane !== undefined ? this.session.where(q.pane) : undefined;
    const workstream = q.pane !== undefined ? workstreamsOf(this.session).ofPane(q.pane)?.name : undefined;
    return {
      id: q.id,
      ...(q.pane !== undefined ? { pane: q.pane } : {}),
      ...(at ? { workspace: at.ws.name, tab: at.tab.id, tab_name: this.session.tabName(at.tab) } : {}),
      ...(workstream ? { workstream } : {}),
      question: q.text,
      choices: q.choices,
      waited_ms: now - q.created,
      ...(q.deadline !== undefined ? { timeout_ms: Math.max(0, q.deadline - now) } : {}),
    };
  }
}
