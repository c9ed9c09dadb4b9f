// The phone page's Web Push endpoints: the VAPID public key its service worker subscribes with, and
// the subscription it got, handed to the push module (src/features/push/), which keeps it in the
// state dir the server sends from: ws web and the server share files, not a message.
import { SubscriptionRefused, subscribe, unsubscribe, vapidPublicKey } from "../features/push";
import { ApiError, jsonBody } from "./phone-api";

export function pushKey(): { key: string } {
  return { key: vapidPublicKey() };
}

/** Body: the browser's PushSubscription.toJSON(). */
export async function pushSubscribe(req: Request): Promise<{ subscribed: string }> {
  const body = await jsonBody(req);
  try {
    return { subscribed: subscribe(body).endpoint };
  } catch (e) {
    if (e instanceof SubscriptionRefused) throw new ApiError(e.message, 400);
    throw e;
  }
}

/** Body: {endpoint}. */
export async function pushUnsubscribe(req: Request): Promise<{ unsubscribed: boolean }> {
  const { endpoint } = await jsonBody(req);
  if (typeof endpoint !== "string") throw new ApiError("send {endpoint: URL}", 400);
  return { unsubscribed: unsubscribe(endpoint) };
}
