// run: type a command at a pane's shell prompt and answer with its exit status and output, which
// the shell's OSC 133 marks delimit (docs/shell-integration.md).
import { WsError } from "../protocol/errors";
import type { Pane } from "../model/pane";
import type { Session } from "../model/session";
import { B_GRACE_MS, type FinishedCommand } from "../model/shell-marks";
import { defineMessage } from "./types";
import { waiting } from "./waiting";

/** How long a shell ws started with integration may take to show its first prompt (a slow rc)
 * before its pane counts as one without integration. */
export const FIRST_PROMPT_MS = 15_000;

/** The command line to type: a string, or words joined with spaces (as ssh joins them). */
function commandLine(command: unknown): string {
  const line = typeof command === "string" ? command : Array.isArray(command) && command.every((w) => typeof w === "string") ? command.join(" ") : undefined;
  if (line === undefined) throw new WsError("invalid type for `command`: expected a string or an array of strings", "invalid_params", { param: "command" });
  if (!line.trim()) throw new WsError("`command` is empty", "invalid_params", { param: "command" });
  // Enter would run the line early, other control characters would edit it.
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(line)) throw new WsError("`command` holds a control character; give one line (join commands with ; or &&)", "invalid_params", { param: "command" });
  return line;
}

function targetPane(session: Session, pane: number | undefined): Pane {
  if (pane !== undefined) return session.pane(pane);
  const ws = session.currentWorkspace;
  return session.pane(session.activeTab(ws).focused);
}

export default defineMessage({
  type: "run",
  since: 6,
  grant: "self",
  request: true,
  longRunning: true,
  reply: "run_result",
  summary:
    "Type a command at a pane's shell prompt, wait for it to finish, and reply with its exit code and output. It needs the shell's OSC 133 marks, which the bash, zsh and fish that ws starts send (docs/shell-integration.md). A timeout leaves the command running.",
  fields: {
    pane: { type: "integer", description: "The pane (default: the focused pane of the workspace on screen)" },
    command: { type: "any", required: true, description: "The command line, typed as is (a string); an array of words is joined with spaces, as ssh does. One line" },
    timeout: { type: "integer", default: 30000, min: 0, max: 86_400_000, description: "Give up after this many ms, with code timeout (the command goes on); 0: no limit" },
  },
  replyFields: {
    pane: { type: "integer", description: "The pane" },
    command: { type: "string", description: "The command line as typed" },
    exit_code: { type: "integer|null", description: "Its exit status, as the shell reported it (null when it reported none)" },
    output: { type: "string", description: "What it printed (from the screen, after its line), wrapped lines joined; its last 1 MiB" },
    truncated: { type: "boolean", description: "The output's start is missing: it scrolled out of the history, or passed 1 MiB" },
    elapsed_ms: { type: "integer", description: "How long it ran, from typing to its end" },
  },
  errors: ["no_shell_integration", "not_at_prompt", "command_not_run", "timeout", "pane_not_found", "pane_exited"],
  example: { v: 6, id: 1, type: "run", pane: 3, command: "make test", timeout: 600000 },
  cli: { path: "run", summary: "Run a command at a pane's shell prompt; print its output and exit with its status", args: ["pane"], rest: "command", defaults: { pane: "$WS_PANE_ID", timeout: 0 }, run: "run" },
  handle(p, { session, signal }) {
    const line = commandLine(p.command);
    const pane = targetPane(session, p.pane);
    // A kept pane (`keep`) whose program has exited reads nothing typed.
    if (pane.exited) throw new WsError(`pane ${pane.id}'s program has exited`, "pane_exited", { param: "pane" });
    const began = Date.now();

    let typed = false;
    let started = false;
    let promptsBefore = 0;
    let graceTimer = false;
    const timedOut = () =>
      new WsError(`timed out after ${p.timeout} ms ${started ? `waiting for \`${line}\` to finish in pane ${pane.id}; it is still running` : `waiting for pane ${pane.id}'s shell`}`, "timeout");
    return waiting({ signal, timeoutMs: p.timeout, timedOut }, ({ finish, later, onFinish, finished }) => {
      const noMarks = () =>
        new WsError(`pane ${pane.id}'s program sends no shell-integration marks (OSC 133): run works in the bash, zsh and fish that ws starts`, "no_shell_integration", {
          param: "pane",
        });

      /** Type the command once the shell is at an empty prompt; refuse what can't become one. */
      const tryType = () => {
        if (typed || finished()) return;
        const marks = pane.shell;
        if (!marks.seen) {
          if (!pane.shellIntegration) return finish(noMarks());
          return; // its first prompt is still to come
        }
        const readiness = marks.promptReadiness(pane.shellIntegration);
        if (readiness === "wait") {
          // Its prompt is on its way; look again when its B is overdue, in case it never comes.
          if (!graceTimer) {
            graceTimer = true;
            later(B_GRACE_MS, () => {
              graceTimer = false;
              tryType();
            });
          }
          return;
        }
        if (readiness === "busy") return finish(new WsError(`pane ${pane.id} is running a command${marks.command ? ` (${marks.command})` : ""}; run types only at the shell's prompt`, "not_at_prompt", { param: "pane" }));
        if (readiness === "typed") return finish(new WsError(`pane ${pane.id} has text typed at its prompt; run would add to it`, "not_at_prompt", { param: "pane" }));
        typed = true;
        promptsBefore = marks.prompts;
        pane.paste(line);
        pane.write("\r");
      };
      const reply = (done: FinishedCommand) => {
        const out = done.output();
        finish({ type: "run_result", pane: pane.id, command: line, exit_code: done.exitCode, output: out.text, truncated: out.truncated, elapsed_ms: Date.now() - began });
      };

      onFinish(
        session.bus.on((e) => {
          if (!("pane" in e) || e.pane !== pane.id) return;
          if (e.type === "pane_closed" || e.type === "pane_exited") return finish(new WsError(`pane ${pane.id} exited ${typed ? `before \`${line}\` finished` : "before its shell was ready"}`, "pane_exited", { param: "pane" }));
          if (!typed) {
            // A prompt mark arrives as part of the pane's output.
            if (e.type === "pane_output") tryType();
            return;
          }
          if (e.type === "pane_output" && !started && pane.shell.prompts > promptsBefore)
            return finish(new WsError(`pane ${pane.id}'s shell showed a new prompt without running \`${line}\` (a syntax error?); the pane shows why`, "command_not_run", { param: "command" }));
          if (e.type === "command_started") started = true;
          else if (e.type === "command_finished" && started) reply(e.result);
        }),
      );
      if (!pane.shell.seen && pane.shellIntegration) {
        const left = pane.startedAt + FIRST_PROMPT_MS - Date.now();
        later(Math.max(0, left), () => {
          if (!typed) finish(noMarks());
        });
      }
      // Marks in output not yet parsed count: decide once the emulator has caught up.
      void pane.flushed().then(tryType);
    });
  },
});
