// How a restore starts an agent resumed: the argv that continues the conversation its hooks
// reported, from the agent CLI's own flags (each checked against the real CLI's --help), or from
// its template's `resume` command. Undefined: start the pane's command as it was.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { SESSION_ID } from "./status-map.ts";

interface ResumeFlags {
  /** Continue a conversation that exists. */
  resume: (id: string) => string[];
  /** Start a new conversation with this id (its transcript was never written: nothing to resume). */
  pin?: (id: string) => string[];
}

/** By the agent's name, which is also its executable's: `claude -r ID` / `--session-id ID`,
 * `codex resume ID`, `gemini --resume ID` / `--session-id ID`. */
const FLAGS: Record<string, ResumeFlags> = {
  claude: { resume: (id) => ["--resume", id], pin: (id) => ["--session-id", id] },
  codex: { resume: (id) => ["resume", id] },
  gemini: { resume: (id) => ["--resume", id], pin: (id) => ["--session-id", id] },
};

export interface ResumeInput {
  /** The pane's command as asked for. */
  command: string[];
  /** Which agent reported (claude, codex, gemini, …). */
  agent?: string;
  session: string;
  /** Where the agent said it keeps the conversation, if it did. */
  transcript?: string;
  /** The template's resume command ({session} is replaced), or false: never. */
  template?: string[] | false;
}

/**
 * The argv that resumes the agent: the template's command, else the pane's command up to the
 * agent's executable with the CLI's resume flags after it. What followed the executable (a first
 * prompt, options) is left off: a prompt would be sent again, and an option's value can't be told
 * from a prompt. Undefined when the session id is not a plain id or the agent is not found.
 */
export function resumeArgv(r: ResumeInput): string[] | undefined {
  if (r.template === false || !SESSION_ID.test(r.session)) return undefined;
  if (r.template) return r.template.map((w) => w.replaceAll("{session}", r.session));
  const names = r.agent && Object.hasOwn(FLAGS, r.agent) ? [r.agent] : Object.keys(FLAGS);
  const at = r.command.findIndex((w) => names.includes(basename(w)));
  if (at < 0) return undefined;
  const flags = FLAGS[basename(r.command[at]!)]!;
  // A transcript that was never written (the agent started, nobody typed): nothing to resume, so
  // the new conversation takes the same id where the CLI lets it.
  const unwritten = r.transcript !== undefined && !existsSync(r.transcript);
  const tail = unwritten ? flags.pin?.(r.session) : flags.resume(r.session);
  return tail ? [...r.command.slice(0, at + 1), ...tail] : undefined;
}
