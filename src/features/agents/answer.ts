// An agent's answer: the final message of a turn, for `ws agent send --wait`. Claude Code's Stop hook
// payload carries it as `last_assistant_message` (its text blocks joined; newer versions) and always
// names the session's `transcript_path` (JSONL: the last assistant entry's text blocks); Codex's
// notify payload (`agent-turn-complete`) carries `last-assistant-message`.
import { readFileTailAsync } from "../../safe-file";

/** Characters of an answer kept (the rest is cut, marked `answer_truncated`). */
export const MAX_ANSWER_CHARS = 100_000;
/** Bytes read from the end of a transcript: the last turn is at its end. */
export const TRANSCRIPT_TAIL_BYTES = 4 * 1024 * 1024;

/** Where a turn's answer is: in the payload, or in a transcript to read when someone asks. */
export interface AnswerSource {
  text?: string;
  transcript?: string;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** What a turn-ending hook payload says about the answer. */
export function answerSource(payload: unknown): AnswerSource {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return {};
  const p = payload as Record<string, unknown>;
  const text = str(p.last_assistant_message) ?? str(p["last-assistant-message"]);
  // Only a JSONL file is read: a payload can't make the server read and hand out any other file.
  const transcript = str(p.transcript_path);
  return { ...(text !== undefined ? { text } : {}), ...(transcript?.endsWith(".jsonl") ? { transcript } : {}) };
}

/** The text of the last assistant message in a Claude Code transcript (JSONL); its content blocks
 * may be split over several entries sharing one message id. */
function lastAssistantText(jsonl: string): string | undefined {
  const lines = jsonl.split("\n");
  let id: unknown;
  const parts: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith("{")) continue;
    let e: { type?: unknown; message?: { id?: unknown; content?: unknown } | null } | null;
    try {
      e = JSON.parse(line);
    } catch {
      continue; // a line cut by the tail read, or one being written
    }
    const m = e?.message;
    const isAssistant = e?.type === "assistant" && m && typeof m === "object";
    if (!isAssistant) {
      if (parts.length && e?.type === "user") break; // the turn before: stop
      continue;
    }
    const texts = Array.isArray(m.content) ? m.content.filter((c: { type?: unknown; text?: unknown } | null) => c?.type === "text" && typeof c.text === "string").map((c: { text: string }) => c.text) : typeof m.content === "string" ? [m.content] : [];
    if (parts.length && m.id !== id) break; // an earlier message
    if (!parts.length && !texts.length) continue; // a tool call after the last text: look further back
    id = m.id;
    parts.unshift(texts.join("\n"));
    if (id === undefined) break;
  }
  const text = parts.join("\n").trim();
  return text || undefined;
}

/** Read the end of a transcript (a regular file only, never waiting on a FIFO: safe-file.ts). */
async function readTail(path: string): Promise<string | undefined> {
  return (await readFileTailAsync(path, TRANSCRIPT_TAIL_BYTES).catch(() => undefined))?.toString("utf8");
}

/** The answer a source gives, cut to MAX_ANSWER_CHARS. */
export async function readAnswer(src: AnswerSource): Promise<{ answer: string; truncated: boolean } | undefined> {
  const text = src.text ?? (src.transcript ? lastAssistantText((await readTail(src.transcript)) ?? "") : undefined);
  if (text === undefined) return undefined;
  return text.length > MAX_ANSWER_CHARS ? { answer: text.slice(0, MAX_ANSWER_CHARS), truncated: true } : { answer: text, truncated: false };
}
