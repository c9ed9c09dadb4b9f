// Web Push (docs/notify.md "Push"): VAPID keys kept in the state dir, subscriptions stored and
// checked, and a notification that reaches a stand-in push service signed and encrypted.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listSubscriptions, subscribe, SubscriptionRefused, unsubscribe, vapidPublicKey } from "../src/features/push";
import { sendPush } from "../src/features/push/send";
import { vapidKeys } from "../src/features/push/vapid";
import { startPushService } from "./push-service";

const dir = mkdtempSync(join(tmpdir(), "ws-push-"));
const env = { XDG_STATE_HOME: dir, HOME: dir };
const service = startPushService();
afterAll(() => {
  service.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("the VAPID key pair is made once and kept private in ws's state dir", () => {
  const key = vapidPublicKey(env);
  expect(Buffer.from(key, "base64url").length).toBe(65);
  expect(vapidPublicKey(env)).toBe(key);
  const st = statSync(join(dir, "ws/push/vapid.json"));
  expect(st.mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, "ws/push")).mode & 0o777).toBe(0o700);
});

test("subscriptions are checked, kept, renewed by endpoint and removed", () => {
  const sub = service.subscription("a");
  subscribe(sub, env);
  subscribe(sub, env); // the page subscribing again renews, not duplicates
  expect(listSubscriptions(env).map((s) => s.endpoint)).toEqual([sub.endpoint]);
  expect(() => subscribe({ ...sub, endpoint: "http://example.com/push" }, env)).toThrow(SubscriptionRefused);
  expect(() => subscribe({ ...sub, keys: { ...sub.keys, auth: "AAAA" } }, env)).toThrow(SubscriptionRefused);
  expect(() => subscribe("nope", env)).toThrow(SubscriptionRefused);
  expect(unsubscribe(sub.endpoint, env)).toBe(true);
  expect(unsubscribe(sub.endpoint, env)).toBe(false);
  expect(listSubscriptions(env)).toEqual([]);
});

test("a push reaches the push service with a valid VAPID signature and a payload only the subscriber can read", async () => {
  const sub = subscribe(service.subscription("phone"), env);
  const msg = { title: "ws: approval waiting", body: "pane 3 (claude) asks to use Bash", tag: "approval", url: "/inbox" };
  const res = await sendPush(sub, msg, vapidKeys(env));
  expect(service.refused).toEqual([]);
  expect(res.status).toBe(201);
  expect(service.received).toEqual([{ path: "/push/phone", payload: msg, ttl: "86400" }]);
  // Signed with another key pair, the service refuses it: the check is real.
  const other = { ...env, XDG_STATE_HOME: join(dir, "other") };
  const forged = { ...vapidKeys(other), publicKey: vapidKeys(env).publicKey };
  expect((await sendPush(sub, msg, forged)).status).toBe(401);
  expect(service.refused.at(-1)).toBe("bad JWT signature");
});

test("a subscription the push service says is gone is reported so", async () => {
  const sub = subscribe(service.subscription("old"), env);
  service.answer("old", 410);
  expect((await sendPush(sub, { title: "t", body: "b", tag: "x", url: "/" }, vapidKeys(env))).gone).toBe(true);
});
