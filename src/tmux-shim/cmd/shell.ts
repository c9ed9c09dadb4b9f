// The scripting commands (tmux's cmd-run-shell.c, cmd-if-shell.c, cmd-wait-for.c): each exports
// its entry; cmd/index.ts puts them in tmux's table.
import * as os from "node:os";
import { existsSync } from "node:fs";
import { ShimError, call } from "../world";
import { has, val, type Parsed } from "../getopt";
import { parseCommands } from "../parse";
import { entry, format, formatPane, world, type Ctx, type Run } from "./helpers";

const waitForChannel: Run = async (ctx, p) => {
  const channel = p.args[0];
  if (channel === undefined) throw new ShimError("command wait-for: too few arguments");
  const { waitFor, signal, lock, unlock } = await import("../wait-for");
  // Locks end with the server that holds them, as tmux's do: they are kept per ws server pid.
  const server = ctx.env.TMUX?.split(",")[1] ?? "0";
  if (has(p, "S")) signal(ctx.state.dir, channel);
  else if (has(p, "L")) lock(ctx.state.dir, server, channel);
  else if (has(p, "U")) unlock(ctx.state.dir, server, channel);
  else waitFor(ctx.state.dir, channel);
};

// ---- run-shell, if-shell -------------------------------------------------------------------
// The shell command is the user's own string and runs with sh -c: that is tmux's contract. It is
// a format first (#{pane_id} and the like expand), as in tmux; its stdin and stderr are /dev/null.

/** Output run-shell keeps to show (more is read and dropped). */
const RUN_OUTPUT_MAX = 1024 * 1024;

/** Run `sh -c cmd` in the caller's directory; its exit as tmux reports it, and its stdout. */
async function shellJob(ctx: Ctx, cmd: string, keepOutput: boolean): Promise<{ status: number; signal?: number; output: string }> {
  const proc = Bun.spawn(["/bin/sh", "-c", cmd], { env: ctx.env, stdin: "ignore", stdout: keepOutput ? "pipe" : "ignore", stderr: "ignore" });
  let output = "";
  if (keepOutput) {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) if (output.length < RUN_OUTPUT_MAX) output += decoder.decode(chunk, { stream: true });
    output = output.slice(0, RUN_OUTPUT_MAX);
  }
  const code = await proc.exited;
  const signal = proc.signalCode ? (os.constants.signals as Record<string, number>)[proc.signalCode] : undefined;
  return signal !== undefined ? { status: 128 + signal, signal, output } : { status: code, output };
}

/** -b: the call returns at once and the rest runs on, as tmux's server would run it: the same
 * command again, without -b, in a process of its own (the shim's `tmux`; false without one). */
function inBackground(ctx: Ctx, command: string, p: Parsed): boolean {
  if (!existsSync(`${ctx.state.dir}/tmux`)) return false;
  const words: string[] = [command];
  for (const [f, values] of p.flags) if (f !== "b") for (const v of values) words.push(`-${f}`, ...(v === "" ? [] : [v]));
  const setsid = Bun.which("setsid");
  const argv = [`${ctx.state.dir}/tmux`, ...words, "--", ...p.args];
  Bun.spawn(setsid ? [setsid, ...argv] : argv, { env: ctx.env, stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
  return true;
}

/** Expand a format against -t's pane (or the caller's; none is fine). */
async function expandFor(ctx: Ctx, p: Parsed, text: string): Promise<string> {
  const { world: w, here } = await world(ctx);
  const pane = formatPane(w, here, p, false);
  return (await format(ctx, w, text, [pane ? { pane } : {}]))[0]!;
}

/** Run tmux commands given as text (run-shell -C, if-shell's branches). The table is imported
 * when first needed: it holds this module's entries, so a static import would be a cycle. */
async function runCommands(ctx: Ctx, text: string): Promise<void> {
  const { runCommand } = await import("./index");
  for (const words of parseCommands(text, ctx.env)) await runCommand(ctx, words);
}

/** run-shell's output where the person sees it: tmux puts it in the pane's view mode; ws in a
 * popup over the tab, closed with Esc or C-c. With no terminal attached it goes nowhere, as in
 * tmux with no pane to show it. */
async function showOutput(ctx: Ctx, text: string): Promise<void> {
  try {
    await call(ctx.sock, "popup", { command: ["printf", "%s", text], width: "100%", height: "100%", close: "key" });
  } catch (e) {
    if (!(e instanceof ShimError) || (e.code !== "no_client" && e.code !== "popup_open")) throw e;
  }
}

const runShell: Run = async (ctx, p, name) => {
  const delay = val(p, "d");
  if (delay !== undefined && !/^\d*\.?\d+$/.test(delay)) throw new ShimError(`invalid delay time: ${delay}`);
  if (delay === undefined && !p.args.length) return;
  if (has(p, "b") && inBackground(ctx, name, p)) return;
  if (delay !== undefined) await Bun.sleep(Number(delay) * 1000);
  const arg = p.args[0];
  if (arg === undefined) return;
  if (has(p, "C")) return runCommands(ctx, arg);
  const cmd = await expandFor(ctx, p, arg);
  const job = await shellJob(ctx, cmd, true);
  let text = job.output;
  if (job.signal !== undefined) text += `${text && !text.endsWith("\n") ? "\n" : ""}'${cmd}' terminated by signal ${job.signal}\n`;
  else if (job.status !== 0) text += `${text && !text.endsWith("\n") ? "\n" : ""}'${cmd}' returned ${job.status}\n`;
  if (text) await showOutput(ctx, text);
  ctx.status = job.status;
};

const ifShell: Run = async (ctx, p, name) => {
  if (p.args.length < 2) throw new ShimError(`command ${name}: too few arguments (need at least 2)`);
  if (p.args.length > 3) throw new ShimError(`command ${name}: too many arguments (need at most 3)`);
  const [cond, then, otherwise] = p.args as [string, string, string | undefined];
  if (has(p, "F")) {
    const value = await expandFor(ctx, p, cond);
    const chosen = value !== "" && !value.startsWith("0") ? then : otherwise;
    if (chosen !== undefined) await runCommands(ctx, chosen);
    return;
  }
  if (has(p, "b") && inBackground(ctx, name, p)) return;
  const job = await shellJob(ctx, await expandFor(ctx, p, cond), false);
  const chosen = job.status === 0 && job.signal === undefined ? then : otherwise;
  if (chosen !== undefined) await runCommands(ctx, chosen);
};

// ---- the entries ---------------------------------------------------------------------------

export const ifShellEntry = entry("if-shell", "if", "bFt:", ifShell);
export const runShellEntry = entry("run-shell", "run", "bd:Ct:", runShell);
export const waitForEntry = entry("wait-for", "wait", "LSU", waitForChannel);
