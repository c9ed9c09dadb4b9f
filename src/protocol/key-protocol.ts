// Which keyboard protocol ws turns on in the user's terminal, found by asking first: the kitty
// keyboard query (`CSI ? u`) and then DA1 (`CSI c`), which every terminal answers. A kitty flags
// answer (`CSI ? flags u`) means kitty keys; a DA1 answer with no kitty
// answer before it means none, so xterm's modifyOtherKeys 2; no answer at all within KEYS_PROBE_MS
// (a terminal that answers nothing) means modifyOtherKeys 2 too, which costs nothing where it is
// not known. Whoever reads the terminal asks: the server when it drives it (attach's `tty`), else
// the attach client. The screen is drawn meanwhile: the answer never holds a frame back.
// Detaching undoes exactly what was turned on.

/** A protocol ws turned on in the user's terminal. */
export type KeyProtocol = "kitty" | "modify-other-keys";
const KEY_PROTOCOLS: readonly KeyProtocol[] = ["kitty", "modify-other-keys"];

/** What the input parser reports of the terminal's answers to KEYS_QUERY and TERMINAL_QUERY
 * (terminal-report.ts; they are not keys): an OSC answer's body (`11;rgb:…`), XTVERSION's text. */
export type TerminalReply = "kitty-flags" | "device-attributes" | { osc: string } | { xtversion: string };

/** The questions: kitty's flags, then primary device attributes (answered by every terminal). */
export const KEYS_QUERY = "\x1b[?u\x1b[c";

/** How long an unanswered query waits before modifyOtherKeys is taken: long enough for ssh to a
 * far host. `WS_KEYS_PROBE_MS` (0–60000) in the environment of whoever asks (the server when it
 * drives the terminal, else `ws attach`) changes it. */
const KEYS_PROBE_MS = 1000;

export function probeMs(): number {
  const v = Number(process.env.WS_KEYS_PROBE_MS);
  return process.env.WS_KEYS_PROBE_MS && Number.isFinite(v) && v >= 0 ? Math.min(v, 60_000) : KEYS_PROBE_MS;
}

// kitty: "disambiguate" pushed on the alternate screen's stack (popped before it is left).
// modifyOtherKeys: a terminal that knows neither may read `CSI > 4 ; 2 m` as SGR 4;2, which the
// SGR reset after it undoes (frames start from a reset pen, so the reset changes nothing).
const ON: Record<KeyProtocol, string> = { kitty: "\x1b[>1u", "modify-other-keys": "\x1b[>4;2m\x1b[0m" };
const OFF: Record<KeyProtocol, string> = { kitty: "\x1b[<u", "modify-other-keys": "\x1b[>4m\x1b[0m" };

export const keysOn = (p: KeyProtocol): string => ON[p];
/** What undoes `ps`, in reverse order of turning on. */
export const keysOff = (ps: readonly KeyProtocol[]): string => [...ps].reverse().map((p) => OFF[p]).join("");

export const isKeyProtocol = (s: string): s is KeyProtocol => (KEY_PROTOCOLS as readonly string[]).includes(s);

/** One attach's question: calls `decide` once, on the first telling answer or the timeout. */
export class KeyProbe {
  private done = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly decide: (p: KeyProtocol) => void,
    waitMs = probeMs(),
  ) {
    this.timer = setTimeout(() => this.settle("modify-other-keys"), waitMs);
  }

  /** An answer arrived: kitty's flags settle it; DA1 first means no kitty. Later ones are ignored. */
  reply(r: TerminalReply): void {
    if (typeof r === "object") return; // an answer to another question
    this.settle(r === "kitty-flags" ? "kitty" : "modify-other-keys");
  }

  /** Nothing more to decide (the client went away). */
  stop(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  private settle(p: KeyProtocol): void {
    if (this.done) return;
    this.stop();
    this.decide(p);
  }
}
