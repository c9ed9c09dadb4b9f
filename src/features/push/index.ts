// Web Push for ws (docs/notify.md "Push"): what `ws web`'s phone page and the server use.
export { vapidPublicKey } from "./vapid";
export { subscribe, unsubscribe, listSubscriptions, checkSubscription, SubscriptionRefused, type PushSubscription } from "./subscriptions";
export type { PushMessage } from "./send";
