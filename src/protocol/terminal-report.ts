// What ws asks the user's terminal about itself at attach, beside its keyboard protocol
// (key-protocol.ts): its colours (OSC 10, 11 and 12: foreground, background, cursor; OSC 4: the 16
// palette colours themes change), which panes' programs ask for to pick a light or dark theme,
// and its name and version (XTVERSION), tmux's `client_termtype`. The questions go out before the
// keyboard query, whose DA1 answer (every terminal gives one) then says all answers are in.
// Whoever reads the terminal asks: the server when it drives it, else the attach client, which
// sends the report in a TERMINAL frame. Nothing waits for it: until it is in, and when the
// terminal answers nothing, panes get ws's defaults.

import type { TerminalReply } from "./key-protocol";

/** The palette entries asked for: the 16 a theme sets (the rest are xterm's fixed cube and greys). */
export const ASKED_PALETTE = 16;

/** XTVERSION, then OSC 10/11/12 and OSC 4 for the 16 colours, each ended with ST. One OSC 4 a
 * colour: tmux 3.3a answers only the first of several in one. */
export const TERMINAL_QUERY =
  "\x1b[>q\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b]12;?\x1b\\" + Array.from({ length: ASKED_PALETTE }, (_, i) => `\x1b]4;${i};?\x1b\\`).join("");

/** Whether to ask a terminal whose $TERM is `term`: not the Linux or BSD console, which print
 * an OSC they do not know instead of ignoring it. */
export function asksTerminal(term: string | undefined): boolean {
  return !/^(linux|cons\d|vt\d)/.test(term ?? "");
}

/** What the terminal said. Colours as `rgb:rrrr/gggg/bbbb`; `palette` by index (0–255). */
export interface TerminalReport {
  fg?: string;
  bg?: string;
  cursor?: string;
  palette?: Record<number, string>;
  /** Its XTVERSION answer ("tmux 3.3a", "XTerm(390)"): printable ASCII, at most 128 characters. */
  version?: string;
}

const HEX = /^[0-9a-f]{1,4}$/i;

/** An X11 `rgb:r/g/b` colour (1–4 hex digits a channel) as xterm writes it, 4 digits a channel;
 * `#rgb`, `#rrggbb` and `#rrrrggggbbbb` too. Undefined for anything else. */
export function normaliseColour(spec: string): string | undefined {
  let parts: string[] | undefined;
  if (/^rgb:/i.test(spec)) parts = spec.slice(4).split("/");
  else if (/^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{12})$/i.test(spec)) {
    const n = (spec.length - 1) / 3;
    parts = [spec.slice(1, 1 + n), spec.slice(1 + n, 1 + 2 * n), spec.slice(1 + 2 * n)];
  }
  if (parts?.length !== 3 || !parts.every((p) => HEX.test(p))) return undefined;
  const wide = parts.map((p) => {
    const v = Math.round((parseInt(p, 16) * 0xffff) / (16 ** p.length - 1));
    return v.toString(16).padStart(4, "0");
  });
  return `rgb:${wide.join("/")}`;
}

const VERSION = /^[\x20-\x7e]{1,128}$/;

/** A TERMINAL frame's payload, checked (it comes from the client): only what is well formed is kept. */
export function checkTerminalReport(json: unknown): TerminalReport {
  const out: TerminalReport = {};
  if (!json || typeof json !== "object" || Array.isArray(json)) return out;
  const o = json as Record<string, unknown>;
  for (const k of ["fg", "bg", "cursor"] as const) {
    const c = typeof o[k] === "string" ? normaliseColour(o[k]) : undefined;
    if (c) out[k] = c;
  }
  if (o.palette && typeof o.palette === "object" && !Array.isArray(o.palette)) {
    const palette: Record<number, string> = {};
    for (const [i, v] of Object.entries(o.palette as Record<string, unknown>)) {
      const n = Number(i);
      const c = typeof v === "string" ? normaliseColour(v) : undefined;
      if (Number.isInteger(n) && n >= 0 && n <= 255 && c) palette[n] = c;
    }
    if (Object.keys(palette).length) out.palette = palette;
  }
  if (typeof o.version === "string" && VERSION.test(o.version)) out.version = o.version;
  return out;
}

/** Gathers the answers to TERMINAL_QUERY as the input parser reports them; `done` once, on the
 * DA1 answer that follows them or at the deadline, with what came. */
export class TerminalAsk {
  private readonly report: TerminalReport = {};
  private finished = false;
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly done: (r: TerminalReport) => void,
    waitMs: number,
  ) {
    this.timer = setTimeout(() => this.finish(), waitMs);
  }

  reply(r: TerminalReply): void {
    if (this.finished) return;
    if (r === "device-attributes") return this.finish();
    if (typeof r !== "object") return;
    if ("xtversion" in r) {
      if (VERSION.test(r.xtversion)) this.report.version = r.xtversion;
      return;
    }
    this.oscAnswer(r.osc);
  }

  /** Nothing more to gather (the client went away). */
  stop(): void {
    this.finished = true;
    clearTimeout(this.timer);
  }

  private oscAnswer(body: string): void {
    const [ident, ...rest] = body.split(";");
    if (ident === "4") {
      for (let i = 0; i + 1 < rest.length; i += 2) {
        const n = Number(rest[i]);
        const c = normaliseColour(rest[i + 1]!);
        if (Number.isInteger(n) && n >= 0 && n <= 255 && c) (this.report.palette ??= {})[n] = c;
      }
      return;
    }
    const key = ({ "10": "fg", "11": "bg", "12": "cursor" } as const)[ident as "10" | "11" | "12"];
    const c = rest.length === 1 ? normaliseColour(rest[0]!) : undefined;
    if (key && c) this.report[key] = c;
  }

  private finish(): void {
    if (this.finished) return;
    this.stop();
    this.done(this.report);
  }
}
