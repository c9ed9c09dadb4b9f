// One agent's row, as `ws dashboard`, its --json, `ws agent list` and the on-screen Dashboard show
// it: the fields (built once, by AgentService.rows) and the line of text made from them.
import type { AgentStatus } from "./status-map.ts";

export interface AgentRow {
  pane: number;
  workspace: string;
  /** The tab's name and id. */
  tab: string;
  tab_id: number;
  /** The pane's label (its name, else its title or program). */
  label: string;
  /** Which agent CLI reports (claude, codex, gemini, …), when its hooks say. */
  agent?: string;
  /** The workstream the pane belongs to. */
  workstream?: string;
  /** The agent's own conversation id, as its hooks named it: a restore resumes it. */
  session?: string;
  status: AgentStatus;
  detail?: string;
  /** Seconds in this status. */
  secs: number;
  /** Kept over a respawn or a restore: the agent has not reported since. */
  restored?: true;
  /** Restored from a save taken mid-turn: the turn was cut off by the server going down. */
  interrupted?: true;
  /** Prompts queued for it (ws agent send --when). */
  queued?: number;
}

/** The row's status word: interrupted wins over the status saved before the restart. */
export const statusWord = (a: Pick<AgentRow, "status" | "interrupted">): string => (a.interrupted ? "interrupted" : a.status);

const ago = (s: number) => (s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`);

/** The session id shortened for a row (UUIDs: their first block); --json has it whole. */
const shortSession = (id: string) => (id.length > 12 ? id.slice(0, 8) : id);

/** "working       12s  pane 4  main / beta · claude  [ws fix-z]  session 1a2b3c4d  (Bash)  [2 queued]".
 * A row from an older server may lack the newer fields (tab, agent, session). */
export function agentRowText(a: AgentRow): string {
  const tab = a.tab ?? a.label;
  const who = a.agent && a.agent !== tab ? ` · ${a.agent}` : a.label !== tab ? ` · ${a.label}` : "";
  return (
    `${statusWord(a).padEnd(11)} ${ago(a.secs).padStart(4)}  pane ${a.pane}  ${a.workspace} / ${tab}${who}` +
    `${a.workstream ? `  [ws ${a.workstream}]` : ""}${a.session ? `  session ${shortSession(a.session)}` : ""}` +
    `${a.detail ? `  (${a.detail})` : ""}${a.restored && !a.interrupted ? "  [restored]" : ""}${a.queued ? `  [${a.queued} queued]` : ""}`
  );
}
