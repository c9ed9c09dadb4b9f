// Each pane's grants (docs/security.md "Grants"): the level it was given, who created it, whether
// the person raised it, and what a connection gave up with restrict_connection. The level a pane's
// socket answers with is lowered to the agent default while an agent runs in it, unless the person
// raised it, so typing `claude` in a shell pane gives that agent `self`, and the shell gets its
// grants back when the agent exits.
import type { Session } from "../../model/session";
import { paneWhere } from "../../model/session-lookups";
import { AGENT_DEFAULT, GRANT_LEVELS, PERSON_PANE_DEFAULT, lowest, rank, type GrantLevel } from "../../protocol/grants";
import { WsError } from "../../protocol/errors";

/** Programs that are coding agents, by the name of the pane's foreground program. */
export const KNOWN_AGENTS: ReadonlySet<string> = new Set(["claude", "codex", "gemini", "opencode", "aider", "amp", "cursor-agent", "goose", "qwen", "crush", "copilot"]);

interface PaneGrants {
  level: GrantLevel;
  /** The person set it (ws pane grant): an agent running in the pane does not lower it. */
  byPerson: boolean;
}

export interface GrantsView {
  pane: number;
  /** What the pane's socket answers with now. */
  level: GrantLevel;
  /** What it was given (the level again once no agent runs in it). */
  granted: GrantLevel;
  /** An agent runs in it, so it answers with the agent default. */
  agent: boolean;
  by_person: boolean;
  creator?: number;
}

export class GrantService {
  private panes = new Map<number, PaneGrants>();
  private creators = new Map<number, number>();
  private restricted = new WeakMap<object, GrantLevel>();
  private off: () => void;

  /** `agentReports(pane)`: an agent's hooks report from the pane (features/agents). */
  constructor(
    private session: Session,
    private agentReports: (pane: number) => boolean = () => false,
    /** What a pane the person opens gets (keys.toml `grants`: control unless it says less). */
    private personDefault: GrantLevel = PERSON_PANE_DEFAULT,
  ) {
    this.off = session.bus.on((e) => {
      if (e.type === "pane_closed") {
        this.panes.delete(e.pane);
        this.creators.delete(e.pane);
      }
    });
  }

  stop(): void {
    this.off();
  }

  /** Whether an agent runs in the pane: its hooks report, or its foreground program is one. */
  agentRuns(pane: number): boolean {
    const p = this.session.panes.get(pane);
    if (!p || p.exited) return false;
    return this.agentReports(pane) || KNOWN_AGENTS.has(p.program);
  }

  granted(pane: number): GrantLevel {
    return this.panes.get(pane)?.level ?? this.session.panes.get(pane)?.startGrants ?? this.personDefault;
  }

  /** The level the pane's socket answers with now. A pane not (or no longer) in the model gets
   * the least: its socket may outlive it for a moment, or exist before it is adopted. */
  level(pane: number): GrantLevel {
    if (!this.session.panes.has(pane)) return "report";
    const g = this.panes.get(pane);
    const level = this.granted(pane);
    return !g?.byPerson && this.agentRuns(pane) ? lowest(level, AGENT_DEFAULT) : level;
  }

  /** A connection's level: its pane's (or control on the main socket), lowered by restrict_connection. */
  connectionLevel(connection: unknown, pane: number | undefined): GrantLevel {
    const base = pane === undefined ? "control" : this.level(pane);
    const r = connection && typeof connection === "object" ? this.restricted.get(connection) : undefined;
    return r ? lowest(base, r) : base;
  }

  /** Whether the connection gave up authority (restrict_connection): it may never use a person verb. */
  isRestricted(connection: unknown): boolean {
    return !!connection && typeof connection === "object" && this.restricted.has(connection);
  }

  /** restrict_connection: lower (never raise) what this connection may do, for as long as it is open. */
  restrict(connection: unknown, level: GrantLevel, pane: number | undefined): GrantLevel {
    if (!connection || typeof connection !== "object") throw new WsError("no connection to restrict", "unsupported");
    const to = lowest(this.connectionLevel(connection, pane), level);
    this.restricted.set(connection, to);
    return to;
  }

  /**
   * Set a pane's grants. From a pane (`by`: its level), only as low as that level or lower, and only
   * to lower; the person (`by` undefined) may raise, and then an agent running in it no longer
   * lowers it.
   */
  set(pane: number, level: GrantLevel, by?: GrantLevel): void {
    if (by !== undefined) {
      if (rank(level) > rank(by)) throw new WsError(`a pane may give at most its own grants (${by}); only the person raises grants (ws pane grant, from outside ws)`, "forbidden", { grant: "person" });
      this.panes.set(pane, { level: lowest(level, this.granted(pane)), byPerson: false });
      return;
    }
    this.panes.set(pane, { level, byPerson: true });
  }

  /** A pane started by a request from `creator`'s socket (split, tab_new, popup): in its scope. */
  created(pane: number, creator: number | undefined): void {
    if (creator !== undefined && creator !== pane) this.creators.set(pane, creator);
  }

  /** The grants a pane started from `creator`'s socket gets: what was asked (never above the
   * creator's own level), else the creator's level, else (from the person) `fallback`. */
  forNewPane(asked: GrantLevel | undefined, creatorLevel: GrantLevel | undefined, fallback: GrantLevel = this.personDefault): GrantLevel {
    if (creatorLevel === undefined) return asked ?? fallback;
    if (asked !== undefined && rank(asked) > rank(creatorLevel))
      throw new WsError(`a pane may start panes with at most its own grants (${creatorLevel}), not ${asked}; only the person raises grants`, "forbidden", { param: "grants", grant: "person" });
    return asked ?? creatorLevel;
  }

  /** Whether `pane` is `caller` or a pane it created (or one those created, and so on). */
  inSelfScope(caller: number, pane: number): boolean {
    for (let p: number | undefined = pane, depth = 0; p !== undefined && depth < 10_000; p = this.creators.get(p), depth++) if (p === caller) return true;
    return false;
  }

  /** The workspace the pane is in (undefined: none). */
  workspaceOf(pane: number): string | undefined {
    return paneWhere(this.session, pane)?.ws.name;
  }

  view(pane: number): GrantsView {
    const g = this.panes.get(pane);
    const creator = this.creators.get(pane);
    return {
      pane,
      level: this.level(pane),
      granted: this.granted(pane),
      agent: this.agentRuns(pane),
      by_person: !!g?.byPerson,
      ...(creator !== undefined ? { creator } : {}),
    };
  }

  /** What a save keeps: the grants given to panes that differ from the default. */
  saved(pane: number): GrantLevel | undefined {
    const level = this.granted(pane);
    return level !== this.personDefault ? level : undefined;
  }
}

export { GRANT_LEVELS };
