// The phones (browsers) that asked for notifications: what the phone page's service worker got from
// pushManager.subscribe, kept in <state>/ws/push/subscriptions.json. `ws web` calls subscribe and
// unsubscribe; the server reads the list each time it sends.
import { type Env, pushDir, readJsonFile, writeJsonFile } from "./store";

export interface PushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** When it was added, ms since the epoch. */
  added: number;
}

/** The most kept: a new one past it replaces the oldest. */
export const MAX_SUBSCRIPTIONS = 32;
const MAX_ENDPOINT = 2048;

export class SubscriptionRefused extends Error {}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/;

/** A subscription as a browser gives it (PushSubscription.toJSON()), checked; throws SubscriptionRefused. */
export function checkSubscription(v: unknown): Omit<PushSubscription, "added"> {
  const s = v as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  if (!s || typeof s !== "object") throw new SubscriptionRefused("a subscription is an object {endpoint, keys: {p256dh, auth}}");
  const { endpoint } = s;
  if (typeof endpoint !== "string" || endpoint.length > MAX_ENDPOINT) throw new SubscriptionRefused(`endpoint: a URL of at most ${MAX_ENDPOINT} characters`);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new SubscriptionRefused("endpoint is not a URL");
  }
  // Push services are https; plain http only to this machine (a local push service, tests).
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.test(url.hostname)))
    throw new SubscriptionRefused("endpoint must be an https URL");
  const p256dh = Buffer.from(typeof s.keys?.p256dh === "string" ? s.keys.p256dh : "", "base64url");
  const auth = Buffer.from(typeof s.keys?.auth === "string" ? s.keys.auth : "", "base64url");
  if (p256dh.length !== 65 || p256dh[0] !== 4) throw new SubscriptionRefused("keys.p256dh: an uncompressed P-256 public key, base64url");
  if (auth.length !== 16) throw new SubscriptionRefused("keys.auth: 16 bytes, base64url");
  return { endpoint: url.href, keys: { p256dh: p256dh.toString("base64url"), auth: auth.toString("base64url") } };
}

export function listSubscriptions(env: Env = process.env): PushSubscription[] {
  const v = readJsonFile(`${pushDir(env)}/subscriptions.json`);
  if (!Array.isArray(v)) return [];
  const out: PushSubscription[] = [];
  for (const s of v) {
    try {
      out.push({ ...checkSubscription(s), added: typeof s.added === "number" ? s.added : 0 });
    } catch {} // one a hand edit broke is left out, not the whole list
  }
  return out.slice(-MAX_SUBSCRIPTIONS);
}

/** Add (or renew) a browser's subscription. Throws SubscriptionRefused for a bad one. */
export function subscribe(sub: unknown, env: Env = process.env, now = Date.now()): PushSubscription {
  const checked = { ...checkSubscription(sub), added: now };
  const kept = listSubscriptions(env).filter((s) => s.endpoint !== checked.endpoint);
  writeJsonFile(env, "subscriptions.json", [...kept, checked].slice(-MAX_SUBSCRIPTIONS));
  return checked;
}

/** Forget a subscription by its endpoint; whether it was there. */
export function unsubscribe(endpoint: string, env: Env = process.env): boolean {
  const all = listSubscriptions(env);
  const kept = all.filter((s) => s.endpoint !== endpoint);
  if (kept.length === all.length) return false;
  writeJsonFile(env, "subscriptions.json", kept);
  return true;
}
