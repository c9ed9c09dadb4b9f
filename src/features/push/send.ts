// Sending one notification to one subscription: the payload encrypted for it (encrypt.ts), signed
// for the push service with the VAPID key (vapid.ts), POSTed with a time limit.
import { encryptPayload } from "./encrypt";
import type { PushSubscription } from "./subscriptions";
import { type VapidKeys, vapidAuthorization } from "./vapid";

/** What the phone page's service worker gets (JSON): it shows `title` and `body` and opens `url`. */
export interface PushMessage {
  title: string;
  body: string;
  /** Same tag: a newer notification replaces the older one on the phone. */
  tag: string;
  /** The page to open when it is tapped, relative to `ws web`'s address (the inbox). */
  url: string;
}

export interface PushResult {
  endpoint: string;
  status: number;
  /** The push service says the subscription is gone (404, 410): forget it. */
  gone: boolean;
}

const SEND_TIMEOUT_MS = 10_000;
/** RFC 8292's `sub`: how a push service reaches whoever runs the sender. No address of the person's is sent. */
export const VAPID_SUBJECT = "mailto:ws@localhost";

export async function sendPush(sub: PushSubscription, msg: PushMessage, keys: VapidKeys, ttlSeconds = 24 * 3600): Promise<PushResult> {
  const body = encryptPayload(Buffer.from(JSON.stringify(msg)), Buffer.from(sub.keys.p256dh, "base64url"), Buffer.from(sub.keys.auth, "base64url"));
  const res = await fetch(sub.endpoint, {
    method: "POST",
    headers: {
      Authorization: vapidAuthorization(sub.endpoint, keys, VAPID_SUBJECT),
      "Content-Encoding": "aes128gcm",
      "Content-Type": "application/octet-stream",
      TTL: String(ttlSeconds),
      Urgency: "high",
    },
    body: new Uint8Array(body),
    redirect: "error",
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  await res.arrayBuffer().catch(() => undefined);
  return { endpoint: sub.endpoint, status: res.status, gone: res.status === 404 || res.status === 410 };
}
