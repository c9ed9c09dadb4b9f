// The wait engine behind wait_for: block until a condition holds, woken only by the events that can
// change the answer (bus events and, for idle, one timer set for the moment the pane would become
// idle). No polling.
import { WsError } from "../protocol/errors";
import type { ModelEvent } from "../model/events";
import type { Pane } from "../model/pane";
import type { HandlerContext, ReplyOf } from "./types";
import type { WAIT_REPLY, WaitParams } from "./wait_for";
import { waiting } from "./waiting";
import { regexPool } from "../patterns/regex-pool";
import { userPattern, type UserPattern } from "../patterns/user-pattern";
import { log } from "../log";

/** Text to type into the pane once an output wait is in place (pane_send's wait_output): only what
 * the pane writes after it counts, and not the lines the text itself takes (its echo). */
export interface SendFirst {
  text: string;
  enter: boolean;
}

export type WaitResult = ReplyOf<"wait_result", typeof WAIT_REPLY>;

/** Answer a validated wait_for: its reply once the condition holds, or a WsError. */
export function waitFor(p: WaitParams, { session, services, signal }: HandlerContext, send?: SendFirst): Promise<WaitResult> {
  const control = services.control;
  const began = Date.now();
  /** A pane whose program has exited can't change any more: its wait answers now, with the status. */
  const exitedError = (pane: number, what: string) => {
    const exit = control.exitOf(pane);
    const how = exit?.signal ? `killed by ${exit.signal}` : exit ? `status ${exit.exit_code}` : "closed";
    return new WsError(`pane ${pane}'s program exited (${how}) ${what}`, "pane_exited", { param: "pane", exit_code: exit?.exit_code ?? null, signal: exit?.signal ?? null });
  };
  /** A pane closed recently (its exit is remembered) has no text left to match, unless it closed
   * as its program exited: then its last words are remembered (Control.lastWordsOf). */
  const goneAlready = (pane: number) => {
    if (!session.panes.has(pane) && control.exitOf(pane)) throw exitedError(pane, "and the pane was closed");
  };
  /** output: the pane and the compiled pattern. */
  let output: { id: number; pane?: Pane; closedText?: string; pattern: UserPattern } | undefined;
  switch (p.condition) {
    case "output": {
      const pattern = userPattern(p.pattern, p.ignore_case);
      if (send) {
        session.pane(p.pane);
        if (control.exitOf(p.pane)) throw new WsError(`pane ${p.pane}'s program has exited; the text was not sent`, "pane_exited", { param: "pane", command: `ws pane respawn ${p.pane}` });
      }
      // A closed pane writes nothing new.
      const closedText = p.new && !session.panes.has(p.pane) ? "" : control.lastWordsOf(p.pane, p.source);
      if (closedText === undefined) goneAlready(p.pane);
      output = closedText === undefined ? { id: p.pane, pane: session.pane(p.pane), pattern } : { id: p.pane, closedText, pattern };
      break;
    }
    case "exit":
      if (!control.exitOf(p.pane)) session.pane(p.pane);
      break;
    case "idle":
      session.pane(p.pane);
      break;
    case "workspace_exists":
      break;
    case "pane_exists":
      break;
    case "command_finished":
      goneAlready(p.pane);
      session.pane(p.pane);
      if (control.exitOf(p.pane)) throw exitedError(p.pane, "before its shell finished a command");
      break;
    case "agent_status":
      if (!services.get("agents")) throw new WsError("this server has no agent feature", "unsupported");
      session.pane(p.pane);
      break;
  }
  const done = (fields: Omit<WaitResult, "type" | "condition" | "elapsed_ms">): WaitResult => ({ type: "wait_result", condition: p.condition, elapsed_ms: Date.now() - began, ...fields });

  const timedOut = () => new WsError(`timed out after ${p.timeout} ms waiting for ${p.condition}${p.pane !== undefined ? ` of pane ${p.pane}` : ""}`, "timeout");
  return waiting<WaitResult>({ signal, timeoutMs: p.timeout, timedOut }, (w) => {
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
    const check = (): WaitResult | WsError | undefined => {
      switch (p.condition) {
        case "output":
          return undefined; // checkOutput
        case "command_finished":
          // Only the next command counts: the bus listener answers with it.
          if (control.exitOf(p.pane)) return exitedError(p.pane, "before its shell finished a command");
          return session.panes.has(p.pane) ? undefined : new WsError(`pane ${p.pane} closed before its shell finished a command`, "pane_exited", { param: "pane" });
        case "exit": {
          const exit = control.exitOf(p.pane);
          if (exit) return done({ pane: p.pane, exit_code: exit.exit_code, signal: exit.signal, closed: false });
          if (!session.panes.has(p.pane)) return done({ pane: p.pane, exit_code: null, signal: null, closed: true });
          return undefined;
        }
        case "idle": {
          const pane = session.panes.get(p.pane);
          if (!pane) return new WsError(`pane ${p.pane} closed before it was idle`, "pane_exited", { param: "pane" });
          const quiet = Date.now() - pane.lastOutputAt;
          if (quiet >= p.idle_ms) return done({ pane: p.pane, idle_ms: quiet });
          clearTimeout(idleTimer);
          // The one moment it can next become true, unless it prints first (which re-arms this).
          idleTimer = setTimeout(() => settle(), p.idle_ms - quiet + 1);
          return undefined;
        }
        case "workspace_exists": {
          const ws = session.findWorkspace(p.workspace);
          return ws ? done({ workspace: ws.name }) : undefined;
        }
        case "pane_exists": {
          const at = session.panes.has(p.pane) ? session.where(p.pane) : undefined;
          return at ? done({ pane: p.pane, workspace: at.ws.name, tab: at.tab.id }) : undefined;
        }
        case "agent_status": {
          const status = services.get("agents")?.status(p.pane)?.status ?? "none";
          if (p.statuses.includes(status)) return done({ pane: p.pane, status });
          if (!session.panes.has(p.pane)) return new WsError(`pane ${p.pane} closed while waiting for its agent`, "pane_exited", { param: "pane" });
          return undefined;
        }
      }
    };

    // output: the regex pool matches the pane's text (in a helper process unless the pattern is a
    // literal), so a check is asynchronous. One runs at a time; output meanwhile asks for one more.
    const watchOutput = ({ id, pane, closedText, pattern }: { id: number; pane?: Pane; closedText?: string; pattern: UserPattern }) => {
      /** new: the cursor's place once the emulator had caught up as the wait began (set below). */
      let mark: number | undefined;
      const fromNow = p.new || send !== undefined;
      /** The lines the sent text takes where the cursor was (its echo), left out: soft-wrapped
       * rows joined, so a long command line is one. */
      const echoLines = send ? send.text.split("\n").length : 0;
      const paneText = () => {
        if (fromNow && mark === undefined) return "";
        const rows = mark !== undefined ? pane!.emulator.sourceRowsSince(send ? "recent-unwrapped" : p.source, mark) : pane!.emulator.sourceRows(p.source);
        return rows
          .slice(echoLines)
          .map((l) => l.text)
          .join("\n");
      };
      const markNow = () => {
        if (!fromNow || !pane || finished() || !session.panes.has(id)) return;
        mark = pane.emulator.markCursor();
        // Typed only now, after the mark: nothing it makes the pane write can come before it.
        if (send) {
          if (send.text) pane.paste(send.text);
          if (send.enter) pane.write("\r");
        }
        const screen = pane.emulator;
        const taken = mark;
        w.onFinish(() => {
          try {
            screen.unmark(taken);
          } catch {
            // The pane's emulator is gone, and its marks with it.
          }
        });
      };
      /** The pane's text as it closed: what it printed last still counts. */
      let lastText: string | undefined = closedText;
      /** Its program has exited (a kept pane): the text is final, so a check that fails ends the wait. */
      const programGone = () => control.exitOf(id) !== undefined;
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
            const m = await regexPool.match(pattern, () => (finished() ? undefined : (lastText ?? paneText())), proven);
            checkCost = performance.now() - t0;
            proven = true;
            if (m) return finish(done({ pane: id, ...m }));
            if (closed) return finish(new WsError(`pane ${id} closed before its output matched`, "pane_exited", { param: "pane" }));
            if (final) return finish(exitedError(id, "and its output did not match"));
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
      return { checkOutput, onPaneClosed, markNow };
    };
    const out = output && watchOutput(output);

    const settle = () => {
      if (finished()) return;
      if (out) return void out.checkOutput();
      const t0 = performance.now();
      let r: WaitResult | WsError | undefined;
      try {
        r = check();
      } catch (e) {
        log.error("wait_for check failed:", e);
        r = new WsError(`wait_for failed: ${(e as Error).message}`, "internal");
      }
      checkCost = performance.now() - t0;
      if (r) finish(r);
    };
    /** Output checks re-read the pane: coalesce bursts, and spend at most ~20% of the time on them. */
    const settleSoon = () => {
      if (finished() || checkTimer) return;
      checkTimer = setTimeout(
        () => {
          checkTimer = undefined;
          settle();
        },
        Math.min(250, checkCost * 4),
      );
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
        if (out) e.type === "pane_closed" ? out.onPaneClosed() : e.type === "pane_exited" ? settle() : settleSoon();
        else settle();
      }),
    );
    if (output) {
      // Output parsed but not yet announced still counts: check once the emulator has caught up.
      if (output.pane)
        void output.pane.flushed().then(() => {
          out?.markNow();
          settle();
        });
      else settle();
    } else settle();
  });
}
