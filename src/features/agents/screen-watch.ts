// Status for agents without hooks, read from their screen. A pane whose foreground program is a
// known agent (screen-profiles.ts) is watched: when its screen changes, a moment later (one read
// per LOOK_EVERY_MS at most, whatever the agent prints), its visible text is matched against the
// agent's profile, and what it shows (a permission prompt, working, waiting for input) becomes the
// pane's agent status (AgentService.screenStatus) when it changes. A permission prompt becomes an
// inbox item; answering it types the keys that agent's prompt takes, only while the pane still
// shows that same prompt (its text, the fingerprint), else nothing is typed. An agent that
// reports through hooks is left to them.
import type { Session } from "../../model/session";
import { keysToBytes } from "../../model/key-encoder";
import { envInt } from "../../model/limits";
import { WsError } from "../../protocol/errors";
import { regexPool } from "../../patterns/regex-pool";
import { findMatch, type PatternMatch } from "../../patterns/user-pattern";
import type { ApprovalService } from "../approvals/service";
import type { AgentService } from "./service.ts";
import { type AgentProfile, loadProfiles, profileFor, type ScreenPattern } from "./screen-profiles.ts";
import { shorten } from "./status-map.ts";
import { log } from "../../log";

/** The least time between two reads of one pane's screen: a burst of output is one read. */
export const LOOK_EVERY_MS = envInt("WS_AGENT_SCREEN_MS", 250);
/** Characters of a screen read at most (a screen is far less; a bound all the same). */
export const MAX_TEXT = 64 * 1024;

type Shown = "prompt" | "working" | "idle";

interface Watched {
  pane: number;
  pid: number;
  own: boolean;
  profile: AgentProfile;
  timer?: ReturnType<typeof setTimeout>;
  checking: boolean;
  again: boolean;
  /** What the screen showed at the last read that matched anything. */
  shown?: Shown;
  /** The permission prompt on screen: its text's lines (the fingerprint), and its inbox item
   * once the same text was read twice (a prompt being drawn is not listed half-drawn). */
  prompt?: Prompt;
}

interface Prompt {
  lines: string[];
  state: "settling" | "listed" | "answered";
  id?: number;
}

/** A line as a prompt's text: without the borders and bars a TUI draws around it. */
const EDGES = /^[\s\u2500-\u259f|]+|[\s\u2500-\u259f|]+$/g;
export const promptLine = (l: string) => l.replace(EDGES, "");

/** The prompt's text: `count` lines from `line` (0-based), cleaned, blank ones left out. */
export function promptLines(screen: string[], line: number, count: number): string[] {
  return screen.slice(line, line + count).map(promptLine).filter((l) => l !== "");
}

/** Whether `screen` shows `want` (a prompt's lines, as promptLines made them) in one run of lines. */
export function stillShown(screen: string[], want: readonly string[]): boolean {
  if (!want.length) return false;
  const lines = screen.map(promptLine).filter((l) => l !== "");
  for (let i = 0; i + want.length <= lines.length; i++) {
    let j = 0;
    while (j < want.length && lines[i + j] === want[j]) j++;
    if (j === want.length) return true;
  }
  return false;
}

export class ScreenWatch {
  private watched = new Map<number, Watched>();
  private off: () => void;
  profiles: AgentProfile[];

  constructor(
    private session: Session,
    private agents: AgentService,
    private approvals: ApprovalService | undefined,
    profiles?: AgentProfile[],
  ) {
    if (profiles) this.profiles = profiles;
    else {
      const loaded = loadProfiles();
      this.profiles = loaded.profiles;
      for (const w of loaded.warnings) log.warn(w);
    }
    this.off = session.bus.on((e) => {
      if (e.type === "pane_foreground") this.foreground(e.pane, e.pid, e.argv);
      else if (e.type === "pane_output") this.changed(e.pane);
      else if (e.type === "pane_closed" || e.type === "pane_exited" || e.type === "pane_respawned") this.unwatch(e.pane);
    });
    // Panes named before this started (a restore).
    for (const [id, p] of session.panes) if (p.foregroundArgv.length) this.foreground(id, p.foregroundPid, [...p.foregroundArgv]);
  }

  /** agents.toml read again (config reload): its problems, each naming its line or table. */
  reload(): string[] {
    const { profiles, warnings } = loadProfiles();
    this.profiles = profiles;
    for (const id of [...this.watched.keys()]) this.unwatch(id);
    for (const [id, p] of this.session.panes) if (p.foregroundArgv.length) this.foreground(id, p.foregroundPid, [...p.foregroundArgv]);
    return warnings;
  }

  /** The agent watched in a pane, if any. */
  agentIn(pane: number): string | undefined {
    return this.watched.get(pane)?.profile.name;
  }

  stop(): void {
    this.off();
    for (const id of [...this.watched.keys()]) this.unwatch(id);
  }

  private foreground(pane: number, pid: number, argv: string[]): void {
    const p = this.session.panes.get(pane);
    if (!p || p.exited) return;
    const profile = profileFor(this.profiles, argv);
    const w = this.watched.get(pane);
    if (w && w.pid === pid && w.profile === profile) return;
    if (w) this.unwatch(pane);
    if (!profile) return;
    this.watched.set(pane, { pane, pid, own: pid === p.pid, profile, checking: false, again: false });
    this.changed(pane);
  }

  private unwatch(pane: number): void {
    const w = this.watched.get(pane);
    if (!w) return;
    clearTimeout(w.timer);
    this.watched.delete(pane);
    if (w.prompt?.id !== undefined) this.approvals?.withdraw(w.prompt.id);
  }

  /** The screen changed: read it once the burst is over, at most once per LOOK_EVERY_MS. */
  private changed(pane: number): void {
    const w = this.watched.get(pane);
    if (!w || w.timer) return;
    w.timer = setTimeout(() => {
      w.timer = undefined;
      void this.look(w);
    }, LOOK_EVERY_MS);
  }

  private screen(pane: number): string[] | undefined {
    const p = this.session.panes.get(pane);
    if (!p || p.exited) return undefined;
    const rows = p.emulator.sourceRows("visible").map((r) => r.text);
    let n = 0;
    const out: string[] = [];
    for (const r of rows) {
      if ((n += r.length + 1) > MAX_TEXT) break;
      out.push(r);
    }
    return out;
  }

  private async look(w: Watched): Promise<void> {
    if (w.checking) return void (w.again = true);
    w.checking = true;
    try {
      do {
        w.again = false;
        if (this.watched.get(w.pane) !== w || this.agents.hasHooks(w.pane)) return;
        const lines = this.screen(w.pane);
        if (!lines) return;
        await this.classify(w, lines);
      } while (w.again);
    } catch (e) {
      log.error(`reading the screen of pane ${w.pane}'s ${w.profile.name} failed:`, e);
    } finally {
      w.checking = false;
    }
  }

  private async classify(w: Watched, lines: string[]): Promise<void> {
    const text = lines.join("\n");
    const { profile } = w;
    const prompt = profile.prompt && (await firstMatch(profile.prompt.shows, text));
    if (this.watched.get(w.pane) !== w) return;
    if (prompt && profile.prompt) {
      const shown = promptLines(lines, prompt.line - 1, profile.prompt.lines);
      const same = w.prompt && w.prompt.lines.join("\n") === shown.join("\n");
      if (!same) this.promptShown(w, shown);
      else if (w.prompt!.state === "settling") this.promptListed(w, w.prompt!);
      return;
    }
    const shown: Shown | undefined = (await firstMatch(profile.working, text)) ? "working" : (await firstMatch(profile.idle, text)) ? "idle" : undefined;
    if (this.watched.get(w.pane) !== w) return;
    if (w.prompt) this.promptGone(w);
    if (!shown || shown === w.shown) return;
    w.shown = shown;
    this.agents.screenStatus(w.pane, profile.name, shown, undefined, w.pid, w.own);
  }

  /** A permission prompt came on screen (or another replaced the one shown): blocked; read again
   * in a moment, and listed in the inbox if it is the same then. */
  private promptShown(w: Watched, lines: string[]): void {
    if (w.prompt) this.promptGone(w);
    w.prompt = { lines, state: "settling" };
    w.shown = "prompt";
    const [head = "permission", ...rest] = lines;
    this.agents.screenStatus(w.pane, w.profile.name, "blocked", shorten(rest.length ? `${head}: ${rest.join(" · ")}` : head), w.pid, w.own);
    this.changed(w.pane);
  }

  private promptListed(w: Watched, prompt: Prompt): void {
    prompt.state = "listed";
    const [head = "permission", ...rest] = prompt.lines;
    const keys = w.profile.prompt!;
    prompt.id = this.approvals?.screenPrompt({
      pane: w.pane,
      agent: w.profile.name,
      tool: head,
      summary: rest.join(" · ") || head,
      respond: (behavior) => this.respond(w, prompt, behavior === "allow" ? keys.allow : keys.deny),
    })?.id;
  }

  private promptGone(w: Watched): void {
    const id = w.prompt?.id;
    w.prompt = undefined;
    if (w.shown === "prompt") w.shown = undefined;
    if (id !== undefined) this.approvals?.withdraw(id);
  }

  /** A person's answer to a screen prompt: its keys, typed only into a pane that shows that prompt
   * now. Throws prompt_not_shown (nothing typed) otherwise. */
  private respond(w: Watched, prompt: Prompt, keys: string[]): void {
    const p = this.session.panes.get(w.pane);
    const refuse = (why: string): never => {
      throw new WsError(`pane ${w.pane} ${why}; nothing was typed`, "prompt_not_shown", { command: "ws inbox" });
    };
    if (!p || p.exited) refuse("has no agent running");
    if (this.watched.get(w.pane) !== w || w.prompt !== prompt) refuse(`no longer shows ${w.profile.name}'s prompt`);
    // Read again now, not as last classified: the screen may have changed since.
    if (!stillShown(this.screen(w.pane) ?? [], prompt.lines)) refuse(`no longer shows the same ${w.profile.name} prompt (its text changed)`);
    const bytes = keysToBytes(keys, p!.emulator.modes, false);
    if (bytes) p!.write(bytes);
    // The item ends with this answer; the screen's next read says where the agent went.
    prompt.id = undefined;
    prompt.state = "answered";
  }
}

/** The first of `patterns` that matches `text`: ws's own on this thread, the user's through the
 * regex pool (a time budget; one that overruns counts as no match). */
async function firstMatch(patterns: ScreenPattern[], text: string): Promise<PatternMatch | null> {
  for (const p of patterns) {
    let m: PatternMatch | null = null;
    if ("re" in p) m = findMatch(p.re, text);
    else {
      try {
        m = await regexPool.match(p.user, () => text);
      } catch {
        m = null;
      }
    }
    if (m) return m;
  }
  return null;
}
