// How a message's reply reads for people, by the view name its `cli` section gives. (--json
// prints the reply itself.) Each view reads the reply its messages' registry entries declare.
import type { ReplyObject } from "../client/request";
import type { ViewName } from "../messages/cli-names";
import type { EntryReply } from "../messages/types";
import type agent_list from "../messages/agent_list";
import type agent_queue_cancel from "../messages/agent_queue_cancel";
import type agent_queue_list from "../messages/agent_queue_list";
import type agent_send from "../messages/agent_send";
import type approval_answer from "../messages/approval_answer";
import type approval_list from "../messages/approval_list";
import type ask from "../messages/ask";
import type attach_clients from "../messages/attach_clients";
import type checkpoint_diff from "../messages/checkpoint_diff";
import type checkpoint_list from "../messages/checkpoint_list";
import type checkpoint_restore from "../messages/checkpoint_restore";
import type checkpoint_save from "../messages/checkpoint_save";
import type config_reload from "../messages/config_reload";
import type dashboard from "../messages/dashboard";
import type fan_compare from "../messages/fan_compare";
import type fan_keep from "../messages/fan_keep";
import type fan_start from "../messages/fan_start";
import type fan_status from "../messages/fan_status";
import type layout_export from "../messages/layout_export";
import type notify from "../messages/notify";
import type open_file from "../messages/open_file";
import type pane_grant from "../messages/pane_grant";
import type pane_grants from "../messages/pane_grants";
import type pane_info from "../messages/pane_info";
import type pane_read from "../messages/pane_read";
import type pane_respawn from "../messages/pane_respawn";
import type pane_send from "../messages/pane_send";
import type question_answer from "../messages/question_answer";
import type search from "../messages/search";
import type session_save from "../messages/session_save";
import type split from "../messages/split";
import type tab_new from "../messages/tab_new";
import type wait_for from "../messages/wait_for";
import type workspace_list from "../messages/workspace_list";
import type workstream_list from "../messages/workstream_list";
import { safeJson, safeText } from "../safe-text";
import { shipText } from "../features/workstreams/ship-text";
import { agentRowText } from "../features/agents/row";
import type { TabInfo } from "../model/views";

/** The replies each view reads: those of the messages whose `cli.view` names it. */
interface ViewReplies {
  pane: EntryReply<typeof split | typeof tab_new | typeof pane_respawn | typeof open_file | typeof fan_compare>;
  text: EntryReply<typeof pane_read>;
  tree: EntryReply<typeof layout_export>;
  workspaces: EntryReply<typeof workspace_list>;
  agentSent: EntryReply<typeof agent_send>;
  agentList: EntryReply<typeof agent_list>;
  agentQueue: EntryReply<typeof agent_queue_list>;
  promptCancelled: EntryReply<typeof agent_queue_cancel>;
  checkpointSaved: EntryReply<typeof checkpoint_save>;
  checkpoints: EntryReply<typeof checkpoint_list>;
  checkpointDiff: EntryReply<typeof checkpoint_diff>;
  checkpointRestored: EntryReply<typeof checkpoint_restore>;
  fanStarted: EntryReply<typeof fan_start>;
  fanStatus: EntryReply<typeof fan_status>;
  workstreams: EntryReply<typeof workstream_list>;
  fanKept: EntryReply<typeof fan_keep>;
  search: EntryReply<typeof search>;
  /** `ws inbox -H …` adds the host each row came from. */
  inbox: EntryReply<typeof approval_list>;
  grants: EntryReply<typeof pane_grants | typeof pane_grant>;
  clients: EntryReply<typeof attach_clients>;
  answer: EntryReply<typeof ask>;
  questionAnswered: EntryReply<typeof question_answer>;
  approvalAnswered: EntryReply<typeof approval_answer>;
  configReloaded: EntryReply<typeof config_reload>;
  notified: EntryReply<typeof notify>;
  saved: EntryReply<typeof session_save>;
  /** pane send without --wait-output answers a plain ok. */
  wait: EntryReply<typeof wait_for | typeof pane_send>;
  paneInfo: EntryReply<typeof pane_info>;
  dashboard: EntryReply<typeof dashboard>;
}

type View<V extends ViewName> = (r: ViewReplies[V], fields: Record<string, unknown>) => string;

const ago = (s: number) => (s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`);

export function kb(n: number): string {
  return n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function tabLines(tabs: TabInfo[], indent = ""): string[] {
  return tabs.map((t, i) => `${indent}${t.active ? "*" : " "}${i + 1}: ${t.name}${t.project ? ` [${t.project}]` : ""}  panes ${t.panes.join(",")}${t.ports ? `  ports ${t.ports.join(",")}` : ""}`);
}

/** Each view: the text for a reply (and the fields sent, e.g. pane read --styled). */
export const VIEWS: { [V in ViewName]: View<V> } = {
  pane: (r) => (r.pane !== undefined ? String(r.pane) : ""),
  text: (r) => String(r.text ?? ""),
  /** A layout's tree as JSON that layout apply reads back (escaped, so it prints as it parses). */
  tree: (r) => safeJson(JSON.stringify(r.root, null, 2)),
  workspaces: (r) => r.workspaces.map((w) => [`${w.current ? "*" : " "} ${w.name}`, ...tabLines(w.tabs, "    ")].join("\n")).join("\n"),
  /** With a wait, the agent's answer plainly (print makes it safe text), else the status it reported. */
  agentSent: (r) =>
    typeof r.answer === "string"
      ? `${r.answer}${r.answer_truncated ? "\n(answer cut at its limit; --json has the same)" : ""}`
      : r.status !== undefined
        ? String(r.status)
        : r.prompt !== undefined
          ? r.queued
            ? `queued as prompt ${r.prompt} for pane ${r.pane} (ws agent queue)`
            : `sent to pane ${r.pane}`
          : `sent to pane ${r.pane}`,
  /** ws agent list: the Dashboard's agent rows. */
  agentList: (r) => {
    const list = r.agents;
    return list.length ? list.map((a) => safeText(agentRowText(a))).join("\n") : "no agents reporting (ws hooks install claude)";
  },
  /** ws agent queue: one line a prompt, its text's first line cut. */
  agentQueue: (r) => {
    const list = r.prompts;
    if (!list.length) return "no prompts queued";
    return list
      .map((p) => {
        const first = p.text.trim().split("\n", 1)[0] ?? "";
        const shown = first.length > 80 || p.text.trim().includes("\n") ? `${first.slice(0, 79)}…` : first;
        const where = [p.workspace, p.tab_name].filter((x) => x !== undefined).join("/");
        return `${String(p.id).padStart(4)}  pane ${p.pane}${where ? ` (${where})` : ""}  #${p.position}  when ${p.when}  ${ago(Math.round(p.queued_ms / 1000))}  ${shown}`;
      })
      .join("\n");
  },
  promptCancelled: (r) => `cancelled prompt ${r.prompt} (pane ${r.pane})`,
  checkpointSaved: (r) => (r.saved ? `checkpoint ${r.n} (${r.files} files changed)` : "unchanged since the last checkpoint: nothing recorded"),
  checkpoints: (r) => {
    const list = r.checkpoints;
    if (!list.length) return `workstream ${r.workstream} has no checkpoints`;
    const when = (t: number) => new Date(t * 1000).toISOString().replace("T", " ").slice(0, 19);
    // A turn's end reads "after turn N: <its prompt>: K files"; the rest as they were saved.
    return list.map((c) => `${String(c.n).padStart(4)}  ${when(c.time)}  ${c.after ? `${c.text}: ${c.files} ${c.files === 1 ? "file" : "files"}` : `${String(c.files).padStart(4)} files  ${c.text}`}`).join("\n");
  },
  checkpointDiff: (r) => `${r.diff}${r.truncated ? "\n(diff cut at 1 MiB)" : ""}`.replace(/\n$/, ""),
  checkpointRestored: (r) => {
    const line = `restored checkpoint ${r.n}: ${r.written} files written, ${r.removed} removed${r.saved !== undefined ? `; the state before is checkpoint ${r.saved} (ws checkpoint restore ${r.saved} undoes this)` : ""}`;
    // An older server's reply may lack both.
    const skipped = r.skipped ?? [];
    const count = r.skipped_count ?? skipped.length;
    if (!count) return line;
    const more = count > skipped.length ? [`  … and ${count - skipped.length} more`] : [];
    return [line, `skipped ${count} ${count === 1 ? "path" : "paths"} of the checkpoint: on disk now and in no checkpoint (ignored, or under an ignored file or link), so writing would lose the only copy:`, ...skipped.map((p) => `  ${safeText(p)}`), ...more].join("\n");
  },
  fanStarted: (r) =>
    r.candidates.map((c) => safeText(`${c.workstream}  pane ${c.pane}  ${c.workspace}`)).join("\n"),
  fanStatus: (r) => {
    const rows = r.candidates;
    const lines = rows.map((c) => {
      const agent = !c.open ? "closed" : (c.status ?? (c.prompted ? "prompted" : "starting"));
      const changes = c.files !== undefined ? `${c.files} files  +${c.added} -${c.removed}` : "";
      const check = c.check === "none" ? "" : `check ${c.check}${c.exit_code !== undefined && c.check === "failed" ? ` (exit ${c.exit_code})` : ""}`;
      return safeText([String(c.k).padStart(2), c.workstream, agent, changes, check].filter(Boolean).join("  "));
    });
    return [safeText(`fan ${r.fan} (template ${r.template}, base ${String(r.base).slice(0, 12)})`), ...lines].join("\n");
  },
  workstreams: (r) => {
    const rows = r.workstreams;
    if (!rows.length) return "no workstreams";
    return rows
      .map((w) => safeText([w.name.padEnd(20), w.state.padEnd(9), w.branch, w.workspace ? `in ${w.workspace}` : "", w.repo, w.worktree ? "" : "(worktree gone)"].filter(Boolean).join("  ")))
      .concat(rows.some((w) => w.state === "stranded") ? ["stranded: its tab is gone; ws done NAME finishes it"] : [])
      .join("\n");
  },
  fanKept: (r) =>
    safeText(`kept ${r.kept} (branch ${r.branch})${r.closed.length ? `; closed ${r.closed.join(", ")}` : ""}${r.deleted_branches.length ? `; deleted branches ${r.deleted_branches.join(", ")}` : ""}`),
  search: (r) => r.matches.map((m) => `${m.pane}:${m.line}: ${m.text}`).join("\n"),
  /** ws inbox: one line a request (the server made its text safe; safeText again as the terminal's guard). */
  inbox: (r) =>
    [
      ...r.approvals.map((a) => {
        const where = [a.workspace, a.tab_name, a.workstream].filter((x) => x !== undefined).join("/");
        const text = String(a.summary ?? "");
        const shown = text.length > 100 ? `${text.slice(0, 99)}…` : text;
        return safeText(`${a.id}  ${a.agent ?? "agent"} in pane ${a.pane}${where ? ` (${where})` : ""}  ${a.tool}: ${shown}  waited ${Math.round(Number(a.waited_ms) / 1000)}s`);
      }),
      // Questions (ws ask), answered with ws answer ID ANSWER; absent from an older server's reply.
      ...(r.questions ?? []).map((q) => {
        const where = [q.workspace, q.tab_name, q.workstream].filter((x) => x !== undefined).join("/");
        const from = q.pane !== undefined ? `pane ${q.pane}${where ? ` (${where})` : ""}` : "a script";
        const choices = q.choices.length ? `  [${q.choices.map((c, i) => `${i + 1}: ${c}`).join(", ")}]` : "  [any answer]";
        return safeText(`question ${q.id}  ${from} asks: ${q.question}${choices}  waited ${Math.round(Number(q.waited_ms) / 1000)}s  (ws answer ${q.id} ANSWER)`);
      }),
    ].join("\n"),
  grants: (r) =>
    `pane ${r.pane}: ${r.level}${r.level !== r.granted ? ` (given ${r.granted}; an agent runs in it)` : ""}${r.by_person ? ", set by the person" : ""}${r.creator !== undefined ? `, started by pane ${r.creator}` : ""}\n  ${r.allows}`,
  /** ws client list: one line a client, the latest active one starred (its size is the session's). */
  clients: (r) =>
    r.clients
      .map((c) => safeText(`${c.latest ? "*" : " "}${c.id}: ${c.cols}x${c.rows}${c.term ? `  ${c.term}` : ""}${c.terminal ? ` (${c.terminal})` : ""}  attached ${ago(Math.round(Number(c.attached_ms) / 1000))} ago, idle ${ago(Math.round(Number(c.idle_ms) / 1000))}`))
      .join("\n"),
  /** ws ask: the answer alone, for the script that asked. */
  answer: (r) => String(r.answer),
  questionAnswered: (r) => `answered ${r.question}${r.pane !== undefined ? ` (pane ${r.pane})` : ""}: ${r.answer}`,
  approvalAnswered: (r) => `${r.behavior === "allow" ? "allowed" : "denied"} ${r.approval} (pane ${r.pane})`,
  configReloaded: (r) => {
    const w = r.warnings ?? [];
    return w.length ? `keys.toml read again, with ${w.length} problem${w.length === 1 ? "" : "s"} (defaults kept for those):\n${w.map((x) => `  ${safeJson(x)}`).join("\n")}` : "keys.toml read again";
  },
  notified: (r) => (r.attached ? "" : "no client is attached: only event subscribers got it"),
  saved: (r) => `saved ${r.workspaces} workspaces, ${r.tabs} tabs, ${r.panes} panes to ${r.path} (${kb(r.bytes)}, ${r.ms} ms)`,
  wait: (r) => {
    // pane send answers a plain ok: nothing to print, or with --wait-output the output's match.
    if (r.type === "ok") return r.condition === undefined ? "" : String(r.match);
    switch (r.condition) {
      case "output":
        return String(r.match);
      case "exit":
        return r.closed ? "closed" : String(r.exit_code ?? r.signal);
      case "idle":
        return `idle ${r.idle_ms} ms`;
      case "workspace_exists":
        return String(r.workspace);
      case "pane_exists":
        return `${r.workspace} tab ${r.tab}`;
      case "command_finished":
        return String(r.exit_code);
      default:
        return String(r.status);
    }
  },
  paneInfo: (r) => {
    if (r.exited && r.cols === undefined) return `pane ${r.pane}: exited (${r.exit_code ?? r.signal})`;
    const fg = r.foreground;
    const cursor = r.cursor ?? { x: 0, y: 0 };
    return [
      `pane ${r.pane}  ${r.workspace} / tab ${r.tab}${r.focused ? "  focused" : ""}${r.zoomed ? "  zoomed" : ""}`,
      `size     ${r.cols}x${r.rows}  cursor ${cursor.x},${cursor.y}`,
      `title    ${r.title || "-"}  (shown as ${r.label})`,
      `cwd      ${r.cwd}`,
      `pid      ${r.pid}  running ${(r.argv ?? []).join(" ")}`,
      `fg       ${fg ? `${fg.pid} ${fg.argv.join(" ")}` : "-"}`,
    ].join("\n");
  },
  dashboard: (r) => {
    const d = r;
    return [
      "Agents",
      ...d.agents.map((a) => `  ${safeText(agentRowText(a))}`),
      ...(d.agents.length ? [] : ["  none reporting (ws hooks install claude)"]),
      "Workstreams",
      ...(d.workstreams ?? []).map((w) => `  ${w.name}  pane ${w.pane}  ${w.workspace}${w.branch ? `  ${w.branch}` : ""}${shipText(w) ? `  ${shipText(w)}` : ""}${w.pr ? `  ${w.pr}` : ""}`),
      ...(d.workstreams?.length ? [] : ["  none (ws new TEMPLATE NAME)"]),
      "Ports",
      ...d.ports.map((p) => `  ${String(p.port).padStart(5)}  pane ${p.pane}  ${p.workspace} / ${p.tab}  ${p.command}`),
      ...(d.ports.length ? [] : ["  none"]),
    ].join("\n");
  },
};

/** The text for a reply to a message whose entry names view `name`. The reply is the server's to
 * that message, so it has the shape the entry declares (a reply of another shape, from a broken or
 * foreign server, throws a TypeError the caller reports). */
export function viewText(name: ViewName, reply: ReplyObject, fields: Record<string, unknown>): string {
  return (VIEWS[name] as (r: ReplyObject, f: Record<string, unknown>) => string)(reply, fields);
}
