// keys.toml's [push] table: where notifications go beside the phones subscribed through `ws web`,
// which events send one, and how many a minute. Read when the server starts.

export const PUSH_EVENTS = ["approval", "blocked", "done", "question", "notify"] as const;
export type PushEvent = (typeof PUSH_EVENTS)[number];
/** `notify` (a script's `ws notify`, its own words) only when asked for: a script may say anything. */
const DEFAULT_EVENTS: PushEvent[] = ["approval", "blocked", "done", "question"];

export interface PushConfig {
  /** Web Push to the subscribed browsers (default true: subscribing is the person's choice). */
  web: boolean;
  /** A program run for each notification, its title and body as the last two arguments. */
  command?: string[];
  /** An HTTP endpoint POSTed each notification in ntfy's form. */
  url?: string;
  /** Where tapping a push.url or push.command notification leads (ntfy's Click): the phone page of
   * the person's `ws web`, whose address only they know. */
  click?: string;
  /** Headers for `url` (e.g. Authorization: an ntfy token). */
  headers: Record<string, string>;
  /** Put the request's own text (a command line, a question, an agent's message) in notifications. */
  details: boolean;
  /** At most this many notifications a minute, to each destination. */
  rate: number;
  events: ReadonlySet<PushEvent>;
}

export const DEFAULT_RATE = 6;
const MAX_RATE = 60;

export const defaultPushConfig = (): PushConfig => ({ web: true, headers: {}, details: false, rate: DEFAULT_RATE, events: new Set(DEFAULT_EVENTS) });

const KEYS = ["web", "command", "url", "click", "headers", "details", "rate", "events"];

function httpUrl(x: unknown): string | undefined {
  try {
    const url = typeof x === "string" ? new URL(x) : undefined;
    return url && (url.protocol === "https:" || url.protocol === "http:") ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The [push] table read, each bad value left at its default with a problem saying why. */
export function readPushConfig(v: unknown): { config: PushConfig; problems: string[] } {
  const config = defaultPushConfig();
  const problems: string[] = [];
  if (v === undefined) return { config, problems };
  if (!v || typeof v !== "object" || Array.isArray(v)) return { config, problems: ["[push] must be a table"] };
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === "web" || k === "details") {
      if (typeof x === "boolean") config[k] = x;
      else problems.push(`push.${k} must be true or false`);
    } else if (k === "command") {
      if (Array.isArray(x) && x.length > 0 && x.every((a) => typeof a === "string" && a.length > 0)) config.command = x as string[];
      else problems.push('push.command must be a list of words, the program first (["notify-send", "--app-name=ws"])');
    } else if (k === "url" || k === "click") {
      const url = httpUrl(x);
      if (url) config[k] = url;
      else problems.push(`push.${k} must be an http or https URL`);
    } else if (k === "headers") {
      const ok = x && typeof x === "object" && !Array.isArray(x) && Object.entries(x).every(([h, val]) => /^[!#$%&'*+.^_`|~\w-]+$/.test(h) && typeof val === "string" && !/[\r\n\0]/.test(val));
      if (ok) config.headers = x as Record<string, string>;
      else problems.push('push.headers must be a table of header = "value"');
    } else if (k === "rate") {
      if (Number.isInteger(x) && (x as number) >= 1 && (x as number) <= MAX_RATE) config.rate = x as number;
      else problems.push(`push.rate must be a whole number from 1 to ${MAX_RATE} (notifications a minute)`);
    } else if (k === "events") {
      if (Array.isArray(x) && x.every((e) => (PUSH_EVENTS as readonly unknown[]).includes(e))) config.events = new Set(x as PushEvent[]);
      else problems.push(`push.events must be a list of ${PUSH_EVENTS.map((e) => JSON.stringify(e)).join(", ")}`);
    } else problems.push(`push: unknown setting ${JSON.stringify(k)} (expected ${KEYS.join(", ")})`);
  }
  return { config, problems };
}
