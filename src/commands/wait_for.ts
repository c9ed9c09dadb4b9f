// wait_for: block until a condition holds, woken only by the events that can change the answer
// (bus events and, for idle, one timer set for the moment the pane would become idle). No polling.
import { WsError } from "../protocol/errors";
import { SOURCES, type Source } from "../model/text-sources";
import { CHECK_BUDGET_MS, regexPool } from "../server/regex-pool";
import { MAX_PATTERN_LENGTH, userPattern, type UserPattern } from "../server/user-pattern";
import type { ModelEvent } from "../model/events";
import { defineMessage, type Reply } from "./types";
import { waiting } from "./waiting";

export const CONDITIONS = ["output", "exit", "idle", "workspace_exists", "pane_exists", "agent_status", "command_finished"] as const;
export const AGENT_STATUSES = ["blocked", "working", "done", "idle", "none"] as const;

interface Params {
  condition: (typeof CONDITIONS)[number];
  pane?: number;
  workspace?: string;
  pattern?: string;
  ignore_case: boolean;
  source: Source;
  idle_ms?: number;
  statuses?: string[];
  timeout: number;
}

const need = (p: Params, field: keyof Params) => {
  if (p[field] === undefined) throw new WsError(`condition ${p.condition} needs \`${field}\``, "invalid_params", { param: field, command: "ws api describe wait_for" });
};

export default defineMessage<Params>({
  type: "wait_for",
  since: 6,
  request: true,
  longRunning: true,
  reply: "wait_result",
  summary:
    "Block until a condition holds, then reply; `timeout` ends it with code timeout. It is woken by the events that can change its answer, never by polling. output: the pane's text (scrollback included) matches a regex, checked at once and then on new output; exit: the pane's program exits; idle: the pane has printed nothing for idle_ms; workspace_exists / pane_exists; agent_status: the pane's agent status is one of statuses; command_finished: the pane's shell finishes its next command (shell integration, docs/shell-integration.md).",
  fields: {
    condition: { type: "string", required: true, accepted: CONDITIONS, description: "What to wait for" },
    pane: { type: "integer", description: "The pane to watch" },
    workspace: { type: "string", description: "The workspace name (workspace_exists; exact, then ignoring case)" },
    pattern: {
      type: "string",
      description: `output: a JavaScript regular expression (at most ${MAX_PATTERN_LENGTH} characters), matched against the source's lines joined with \\n, multiline (^ and $ match at each line's start and end); a check that takes over ${CHECK_BUDGET_MS} ms ends the wait with regex_timeout`,
    },
    ignore_case: { type: "boolean", default: false, description: "output: match ignoring case" },
    source: { type: "string", default: "recent", accepted: SOURCES, description: "output: what to match against (as pane_read); recent includes the scrollback, so output that scrolled away still matches" },
    idle_ms: { type: "integer", min: 1, max: 86_400_000, description: "idle: how long the pane must have been quiet" },
    statuses: { type: "string[]", accepted: AGENT_STATUSES, description: "agent_status: the statuses that end the wait; none means no agent reports" },
    timeout: { type: "integer", default: 30000, min: 0, max: 86_400_000, description: "Give up after this many ms, with code timeout; 0: no limit" },
  },
  replyFields: {
    condition: { type: "string", description: "The condition that held" },
    elapsed_ms: { type: "integer", description: "How long the wait took" },
    pane: { type: "integer", description: "The pane (pane conditions)" },
    match: { type: "string", description: "output: the text that matched" },
    groups: { type: "array", description: "output: the regex's capture groups" },
    line: { type: "integer", description: "output: the 1-based source line where the match starts" },
    exit_code: { type: "integer|null", description: "exit: the exit code (null when a signal ended it or the pane was closed); command_finished: the command's exit status" },
    command: { type: "string", description: "command_finished: the command line, when the shell's marks show it" },
    signal: { type: "string|null", description: "exit: the signal that ended it" },
    closed: { type: "boolean", description: "exit: true when the pane was closed rather than its program exiting" },
    idle_ms: { type: "integer", description: "idle: how long it has been quiet" },
    workspace: { type: "string", description: "workspace_exists: the workspace's name; pane_exists: the pane's workspace" },
    status: { type: "string", description: "agent_status: the status that matched" },
  },
  errors: ["timeout", "regex_timeout", "busy", "pane_not_found", "pane_exited", "unsupported"],
  example: { v: 6, id: 1, type: "wait_for", condition: "output", pane: 3, pattern: "build (ok|failed)", timeout: 120000 },
  cli: [
    { path: "wait output", summary: "Until a pane's text (scrollback included) matches a regex", args: ["pane", "pattern"], flags: ["ignore_case", "source", "timeout"], fixed: { condition: "output" }, view: "wait" },
    { path: "wait exit", summary: "Until a pane's program exits; prints its exit code and exits with it", args: ["pane"], flags: ["timeout"], fixed: { condition: "exit" }, view: "wait", status: "exit_code" as const },
    { path: "wait idle", summary: "Until a pane has printed nothing for IDLE_MS milliseconds", args: ["pane", "idle_ms"], flags: ["timeout"], fixed: { condition: "idle" }, view: "wait" },
    { path: "wait workspace", summary: "Until a workspace exists", args: ["workspace"], flags: ["timeout"], fixed: { condition: "workspace_exists" }, view: "wait" },
    { path: "wait pane", summary: "Until a pane exists", args: ["pane"], flags: ["timeout"], fixed: { condition: "pane_exists" }, view: "wait" },
    { path: "wait agent", summary: "Until a pane's agent status is one of some (comma-separated)", args: ["pane", "statuses"], flags: ["timeout"], fixed: { condition: "agent_status" }, view: "wait" },
    { path: "wait command", summary: "Until a pane's shell finishes its next command; prints its exit status and exits with it", args: ["pane"], flags: ["timeout"], fixed: { condition: "command_finished" }, view: "wait", status: "exit_code" as const },
  ].map((c) => ({ ...c, defaults: { timeout: 0 } })),
  handle(p, { session, services, signal }) {
    const control = services.control;
    const began = Date.now();
    let pattern: UserPattern | undefined;
    /** A pane whose program has exited can't change any more: its wait answers now, with the status. */
    const exitedError = (pane: number, what: string) => {
      const exit = control.exitOf(pane);
      const how = exit?.signal ? `killed by ${exit.signal}` : exit ? `status ${exit.exit_code}` : "closed";
      return new WsError(`pane ${pane}'s program exited (${how}) ${what}`, "pane_exited", { param: "pane", exit_code: exit?.exit_code ?? null, signal: exit?.signal ?? null });
    };
    /** A pane closed recently (its exit is remembered) has no text left to match. */
    const goneAlready = (pane: number) => {
      if (!session.panes.has(pane) && control.exitOf(pane)) throw exitedError(pane, "and the pane was closed");
    };
    switch (p.condition) {
      case "output":
        need(p, "pane");
        need(p, "pattern");
        pattern = userPattern(p.pattern!, p.ignore_case);
        goneAlready(p.pane!);
        session.pane(p.pane!);
        break;
      case "exit":
        need(p, "pane");
        if (!control.exitOf(p.pane!)) session.pane(p.pane!);
        break;
      case "idle":
        need(p, "pane");
        need(p, "idle_ms");
        session.pane(p.pane!);
        break;
      case "workspace_exists":
        need(p, "workspace");
        break;
      case "pane_exists":
        need(p, "pane");
        break;
      case "command_finished":
        need(p, "pane");
        goneAlready(p.pane!);
        session.pane(p.pane!);
        if (control.exitOf(p.pane!)) throw exitedError(p.pane!, "before its shell finished a command");
        break;
      case "agent_status":
        need(p, "pane");
        need(p, "statuses");
        if (!services.get("agents")) throw new WsError("this server has no agent feature", "unsupported");
        session.pane(p.pane!);
        break;
    }
    const done = (fields: Record<string, unknown>): Reply => ({ type: "wait_result", condition: p.condition, elapsed_ms: Date.now() - began, ...fields });

    const timedOut = () => new WsError(`timed out after ${p.timeout} ms waiting for ${p.condition}${p.pane !== undefined ? ` of pane ${p.pane}` : ""}`, "timeout");
    return waiting({ signal, timeoutMs: p.timeout, timedOut }, (w) => {
      const finished = w.finished;
      let idleTimer: ReturnType<typeof setTimeout> | undefined;
      let checkTimer: ReturnType<typeof setTimeout> | undefined;
      let checkCost = 0;
      w.onFinish(() => {
        clearTimeout(idleTimer);
        clearTimeout(checkTimer);
      });
      const finish = w.finish;

      /** The current answer, or undefined to keep waiting. */
      const check = (): Reply | WsError | undefined => {
        switch (p.condition) {
          case "output":
            return undefined; // checkOutput
          case "command_finished":
            // Only the next command counts: the bus listener answers with it.
            if (control.exitOf(p.pane!)) return exitedError(p.pane!, "before its shell finished a command");
            return session.panes.has(p.pane!) ? undefined : new WsError(`pane ${p.pane} closed before its shell finished a command`, "pane_exited", { param: "pane" });
          case "exit": {
            const exit = control.exitOf(p.pane!);
            if (exit) return done({ pane: p.pane, exit_code: exit.exit_code, signal: exit.signal, closed: false });
            if (!session.panes.has(p.pane!)) return done({ pane: p.pane, exit_code: null, signal: null, closed: true });
            return undefined;
          }
          case "idle": {
            const pane = session.panes.get(p.pane!);
            if (!pane) return new WsError(`pane ${p.pane} closed before it was idle`, "pane_exited", { param: "pane" });
            const quiet = Date.now() - pane.lastOutputAt;
            if (quiet >= p.idle_ms!) return done({ pane: p.pane, idle_ms: quiet });
            clearTimeout(idleTimer);
            // The one moment it can next become true, unless it prints first (which re-arms this).
            idleTimer = setTimeout(() => settle(), p.idle_ms! - quiet + 1);
            return undefined;
          }
          case "workspace_exists": {
            const name = p.workspace!;
            const ws = session.findWorkspace(name);
            return ws ? done({ workspace: ws.name }) : undefined;
          }
          case "pane_exists": {
            const at = session.panes.has(p.pane!) ? session.where(p.pane!) : undefined;
            return at ? done({ pane: p.pane, workspace: at.ws.name, tab: at.tab.id }) : undefined;
          }
          case "agent_status": {
            const status = services.get("agents")?.status(p.pane!)?.status ?? "none";
            if (p.statuses!.includes(status)) return done({ pane: p.pane, status });
            if (!session.panes.has(p.pane!)) return new WsError(`pane ${p.pane} closed while waiting for its agent`, "pane_exited", { param: "pane" });
            return undefined;
          }
        }
      };

      // output: the regex pool matches the pane's text (in a helper process unless the pattern is a
      // literal), so a check is asynchronous. One runs at a time; output meanwhile asks for one more.
      const pane = p.condition === "output" ? session.panes.get(p.pane!) : undefined;
      const paneText = () => pane!.screen.sourceRows(p.source).map((l) => l.text).join("\n");
      /** The pane's text as it closed: what it printed last still counts. */
      let lastText: string | undefined;
      /** Its program has exited (a kept pane): the text is final, so a check that fails ends the wait. */
      const programGone = () => control.exitOf(p.pane!) !== undefined;
      let checking = false;
      let recheck = false;
      /** A check has finished in time: later ones go ahead of untried patterns. */
      let proven = false;
      const checkOutput = async () => {
        if (checking) return void (recheck = true);
        checking = true;
        try {
          do {
            recheck = false;
            const closed = lastText !== undefined;
            const final = !closed && programGone();
            const t0 = performance.now();
            const m = await regexPool.match(pattern!, () => (finished() ? undefined : (lastText ?? paneText())), proven);
            checkCost = performance.now() - t0;
            proven = true;
            if (m) return finish(done({ pane: p.pane, ...m }));
            if (closed) return finish(new WsError(`pane ${p.pane} closed before its output matched`, "pane_exited", { param: "pane" }));
            if (final) return finish(exitedError(p.pane!, "and its output did not match"));
          } while (recheck && !finished());
        } catch (e) {
          finish(e instanceof WsError ? e : new WsError(`wait_for failed: ${(e as Error).message}`, "internal"));
        } finally {
          checking = false;
        }
      };
      const onPaneClosed = () => {
        // The emulator is disposed after this event: read it now.
        try {
          lastText = paneText();
        } catch {
          lastText = "";
        }
        void checkOutput();
      };

      const settle = () => {
        if (finished()) return;
        if (p.condition === "output") return void checkOutput();
        const t0 = performance.now();
        let r: Reply | WsError | undefined;
        try {
          r = check();
        } catch (e) {
          console.error("wait_for check failed:", e);
          r = new WsError(`wait_for failed: ${(e as Error).message}`, "internal");
        }
        checkCost = performance.now() - t0;
        if (r) finish(r);
      };
      /** Output checks re-read the pane: coalesce bursts, and spend at most ~20% of the time on them. */
      const settleSoon = () => {
        if (finished() || checkTimer) return;
        checkTimer = setTimeout(() => {
          checkTimer = undefined;
          settle();
        }, Math.min(250, checkCost * 4));
      };
      const wakes = (e: ModelEvent): boolean => {
        switch (p.condition) {
          case "output":
            return (e.type === "pane_output" || e.type === "pane_closed" || e.type === "pane_exited") && e.pane === p.pane;
          case "idle":
            return (e.type === "pane_output" || e.type === "pane_closed") && e.pane === p.pane;
          case "exit":
            return (e.type === "pane_exited" || e.type === "pane_closed") && e.pane === p.pane;
          case "workspace_exists":
            return e.type === "workspace_created" || e.type === "workspace_renamed";
          case "pane_exists":
            return e.type === "pane_created" && e.pane === p.pane;
          case "agent_status":
            return (e.type === "agent_status" || e.type === "pane_closed") && e.pane === p.pane;
          case "command_finished":
            return (e.type === "command_finished" || e.type === "pane_closed" || e.type === "pane_exited") && e.pane === p.pane;
        }
      };
      w.onFinish(
        session.bus.on((e) => {
          if (!wakes(e)) return;
          if (e.type === "command_finished") return finish(done({ pane: p.pane, exit_code: e.exit_code, ...(e.command !== undefined ? { command: e.command } : {}) }));
          if (p.condition === "output") e.type === "pane_closed" ? onPaneClosed() : e.type === "pane_exited" ? settle() : settleSoon();
          else settle();
        }),
      );
      if (p.condition === "output") {
        // Output parsed but not yet announced still counts: check once the emulator has caught up.
        void pane!.flushed().then(settle);
      } else settle();
    });
  },
});
