// ws pane list: pane_list for people, or one line per pane in a --format of {key}s (tmux -F).
import type { PaneListing } from "../model/views";
import { replyList, send, show } from "./common";
import type { HandlerInput } from "./handlers";
import { UsageError } from "../cli-table/parse";

/** The keys a format may name: every field of a pane_list row. */
export const PANE_LIST_KEYS = [
  "pane", "workspace", "workspace_number", "tab", "tab_name", "tab_number", "label", "title", "name",
  "command", "start_command", "cwd", "pid", "cols", "rows", "focused", "exited", "exit_code", "signal", "agent_status", "popup",
] as const satisfies readonly (keyof PaneListing)[];
// Every field of a row is a key (the compiler checks that none is missing).
const _every: Exclude<keyof PaneListing, (typeof PANE_LIST_KEYS)[number]> extends never ? true : never = true;
void _every;

/** A format's pieces: text, and the keys to fill in. An unknown key is a usage error naming the valid ones. */
export function parseFormat(format: string): (string | { key: keyof PaneListing })[] {
  const out: (string | { key: keyof PaneListing })[] = [];
  const re = /\{([^{}]*)\}/g;
  let last = 0;
  for (let m = re.exec(format); m; m = re.exec(format)) {
    if (m.index > last) out.push(format.slice(last, m.index));
    const key = m[1]!;
    if (!(PANE_LIST_KEYS as readonly string[]).includes(key)) throw new UsageError(`unknown key {${key}} in --format (keys: ${PANE_LIST_KEYS.map((k) => `{${k}}`).join(" ")})`);
    out.push({ key: key as keyof PaneListing });
    last = re.lastIndex;
  }
  if (last < format.length) out.push(format.slice(last));
  return out;
}

function value(v: PaneListing[keyof PaneListing]): string {
  if (v === null) return "";
  if (Array.isArray(v)) return v.join(" ");
  return String(v);
}

export function formatPane(pieces: ReturnType<typeof parseFormat>, p: PaneListing): string {
  return pieces.map((x) => (typeof x === "string" ? x : value(p[x.key]))).join("");
}

/** The default view: one line per pane. */
function paneLine(p: PaneListing): string {
  const state = p.exited ? `[exited: ${p.signal ? `signal ${p.signal}` : `status ${p.exit_code ?? 0}`}]` : p.command.join(" ");
  const agent = p.agent_status ? `  agent ${p.agent_status}` : "";
  return `${p.focused ? "*" : " "}${String(p.pane).padStart(3)}  ${p.workspace}/${p.tab_number}:${p.tab_name}  ${p.label}  ${state}  ${p.cwd}  ${p.cols}x${p.rows}${agent}`;
}

export async function paneList({ fields }: HandlerInput): Promise<void> {
  const pieces = fields.format !== undefined ? parseFormat(String(fields.format)) : undefined;
  const reply = await send("pane_list", fields.workspace !== undefined ? { workspace: fields.workspace } : {});
  const panes = replyList<PaneListing>(reply, "panes");
  show(reply, panes.map((p) => (pieces ? formatPane(pieces, p) : paneLine(p))).join("\n"));
}
