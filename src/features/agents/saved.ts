// What the agents feature keeps in a saved pane: the status its agent last reported and the
// prompts queued for it, with the checks and limits a restore holds them to.
import { hasControl } from "../../safe-text";
import { isInt, isObj, type PaneSection } from "../persistence/section";
import { MAX_PROMPT_CHARS, MAX_QUEUED_PER_AGENT, WHEN, type When } from "./queue";
import { SESSION_ID } from "./status-map";

/** The last status its agent reported, when the agent is the pane's own program (a restore shows
 * it, marked restored, until the agent reports again or exits). */
export interface SavedAgent {
  agent?: string;
  status: "blocked" | "working" | "done" | "idle";
  detail?: string;
  /** When the status began, ms since the epoch. */
  since: number;
  /** The agent's own conversation id, as its hooks named it: a restore starts the agent resumed. */
  session?: string;
  /** Where the agent keeps that conversation (informational). */
  transcript?: string;
  /** Saved again before the restored agent reported: its turn was cut off by an earlier restart. */
  interrupted?: true;
}

/** One queued prompt (queue.ts); the server gives it a new id on restore. */
export interface SavedPrompt {
  text: string;
  when: When;
  /** When it was queued, ms since the epoch. */
  at: number;
}

const STATUSES = new Set(["blocked", "working", "done", "idle"]);
/** The longest agent detail (and title-like text) a restore takes. */
const MAX_DETAIL = 1024;

/** An agent's status is only shown: a bad one is dropped, the pane kept. */
export const AGENT_SECTION: PaneSection<SavedAgent> = {
  check(a) {
    if (!isObj(a) || !STATUSES.has(a.status) || !isInt(a.since)) return {};
    const out: SavedAgent = { status: a.status, since: a.since };
    if (typeof a.agent === "string" && a.agent.length <= 64 && !hasControl(a.agent)) out.agent = a.agent;
    if (typeof a.detail === "string" && a.detail.length <= MAX_DETAIL && !hasControl(a.detail)) out.detail = a.detail;
    // Handed back to the agent as one argv word: a plain id only.
    if (typeof a.session === "string" && SESSION_ID.test(a.session)) out.session = a.session;
    if (typeof a.transcript === "string" && a.transcript.length <= 4096 && !hasControl(a.transcript)) out.transcript = a.transcript;
    if (a.interrupted === true) out.interrupted = true;
    return { value: out };
  },
};

/** Queued prompts are the person's: bad entries are dropped (and said), the rest kept in order, at
 * most MAX_QUEUED_PER_AGENT. */
export const PROMPTS_SECTION: PaneSection<SavedPrompt[]> = {
  check(v) {
    const list: SavedPrompt[] = [];
    let dropped = 0;
    if (!Array.isArray(v)) dropped = 1;
    else
      for (const e of v) {
        const ok = isObj(e) && typeof e.text === "string" && e.text.length <= MAX_PROMPT_CHARS && (WHEN as readonly unknown[]).includes(e.when) && isInt(e.at) && list.length < MAX_QUEUED_PER_AGENT;
        if (ok) list.push({ text: e.text as string, when: e.when as When, at: e.at as number });
        else dropped++;
      }
    return { ...(list.length ? { value: list } : {}), ...(dropped ? { note: `${dropped} of its queued prompts were not valid; dropped` } : {}) };
  },
};
