// The phone page's `ws ask` questions and its Web Push, in a real Chromium (Debian's, driven by
// playwright-core). Questions: one with choices answered by a button, one without by a typed line
// that the page's poll does not wipe, the question's text shown as text. Push: its endpoints
// (the VAPID key; a subscription taken with the cookie and this Origin, refused without either, and
// forgotten on unsubscribe), the "Notify me" switch registering the service worker, and that
// worker showing a push the way the server sends it ({title, body, tag, url}), delivered through
// the DevTools protocol, since headless Chromium has no push service to subscribe with.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { type Conn, TestServer, waitFor } from "./harness";
import { CHROMIUM, needChromium, startWeb } from "./web-rig";


const s = new TestServer();
let web: ReturnType<typeof Bun.spawn>;
let base = "";
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cookie = "";

const pushFile = (name: string) => join(s.env.XDG_STATE_HOME!, "ws", "push", name);
const subscriptions = (): { endpoint: string }[] => (existsSync(pushFile("subscriptions.json")) ? JSON.parse(readFileSync(pushFile("subscriptions.json"), "utf8")) : []);

/** A subscription as a browser's PushSubscription.toJSON() gives one. */
function aSubscription(endpoint: string) {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const p256dh = publicKey.export({ format: "der", type: "spki" }).subarray(-65).toString("base64url");
  return { endpoint, keys: { p256dh, auth: randomBytes(16).toString("base64url") } };
}

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(base + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

beforeAll(async () => {
  needChromium();
  await s.start();
  const running = await startWeb(s);
  web = running.proc;
  base = running.base;
  const loginUrl = running.loginUrl;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  context = await browser.newContext();
  await context.grantPermissions(["notifications"], { origin: base });
  page = await context.newPage();
  await page.goto(loginUrl);
  const c = (await context.cookies()).find((k) => k.name === "ws_session")!;
  cookie = `${c.name}=${c.value}`;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  web?.kill();
  await web?.exited;
  await s.stop();
}, 30_000);

describe("ws web's phone page answers questions", () => {
  test("a question with choices is answered by a button, its text shown as text", async () => {
    const evil = `<img src=x onerror="document.title='owned'"> Deploy?`;
    const asker: Conn = await s.connect();
    asker.send({ v: 6, id: 3, type: "ask", question: evil, choice: ["yes", "no"], timeout: 60000 });
    const phone = await context.newPage();
    await phone.goto(`${base}/phone`);
    const item = phone.locator(".question").first();
    await item.waitFor({ timeout: 15000 });
    expect(await item.locator("pre.text").textContent()).toBe(evil);
    expect(await phone.locator(".question img").count()).toBe(0);
    await item.locator("button.choice", { hasText: "no" }).click();
    expect(await asker.nextJson(30000)).toMatchObject({ type: "answer", answer: "no" });
    await phone.locator(".question .answered").waitFor();
    expect(await phone.title()).not.toBe("owned");
    asker.close();
    await phone.close();
  }, 40_000);

  test("a question without choices takes a typed line, which the page's poll leaves alone", async () => {
    const asker: Conn = await s.connect();
    asker.send({ v: 6, id: 4, type: "ask", question: "Which branch?", timeout: 60000 });
    const phone = await context.newPage();
    await phone.goto(`${base}/phone`);
    const input = phone.locator(".question input[name=answer]");
    await input.waitFor({ timeout: 15000 });
    await input.fill("release/2.0");
    // Two more polls of the state redraw the page around the box.
    for (let i = 0; i < 2; i++) await phone.waitForResponse((r) => r.url().endsWith("/api/state"), { timeout: 10000 });
    expect(await input.inputValue()).toBe("release/2.0");
    await input.press("Enter");
    expect(await asker.nextJson(30000)).toMatchObject({ type: "answer", answer: "release/2.0" });
    // Shown as answered, with nothing left to type into (the poll keeps it so a while after).
    await phone.locator(".question .answered").waitFor();
    expect(await phone.locator(".question .answered").textContent()).toBe("Answered: release/2.0");
    expect(await phone.locator(".question input").count()).toBe(0);
    await waitFor("the poll's redraw", async () => (await phone.locator("#questions h2").textContent()) === "Questions (0)");
    expect(await phone.locator(".question .answered").count()).toBe(1);
    asker.close();
    await phone.close();
  }, 40_000);

  test("an answer from another Origin, or to no question, is refused", async () => {
    expect((await post("/api/question", { question: 1, answer: "x" }, { cookie, origin: "http://evil.example" })).status).toBe(403);
    expect((await post("/api/question", { question: 999, answer: "x" }, { cookie, origin: base })).status).toBe(404);
    expect((await post("/api/question", { question: "1" }, { cookie, origin: base })).status).toBe(400);
  });
});

describe("ws web push", () => {
  test("gives the VAPID public key kept in the state dir, only with the cookie", async () => {
    expect((await fetch(`${base}/api/push/key`)).status).toBe(401);
    const r = await fetch(`${base}/api/push/key`, { headers: { cookie } });
    expect(r.status).toBe(200);
    const { key } = (await r.json()) as { key: string };
    expect(key).toBe(JSON.parse(readFileSync(pushFile("vapid.json"), "utf8")).publicKey);
    expect(Buffer.from(key, "base64url").length).toBe(65);
  });

  test("takes a subscription with the cookie and this Origin; refuses one without either, or a bad one", async () => {
    const sub = aSubscription("http://127.0.0.1:9/push/phone-1");
    expect((await post("/api/push/subscribe", sub, { origin: base })).status).toBe(401);
    expect((await post("/api/push/subscribe", sub, { cookie, origin: "http://evil.example" })).status).toBe(403);
    expect((await post("/api/push/subscribe", sub, { cookie })).status).toBe(403);
    expect(subscriptions()).toEqual([]);
    const bad = await post("/api/push/subscribe", { ...sub, endpoint: "http://push.example/x" }, { cookie, origin: base });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain("https");

    const ok = await post("/api/push/subscribe", sub, { cookie, origin: base });
    expect(ok.status).toBe(200);
    expect(subscriptions().map((x) => x.endpoint)).toEqual([sub.endpoint]);

    expect((await post("/api/push/unsubscribe", { endpoint: sub.endpoint }, { cookie, origin: "http://evil.example" })).status).toBe(403);
    expect(subscriptions().length).toBe(1);
    const off = await post("/api/push/unsubscribe", { endpoint: sub.endpoint }, { cookie, origin: base });
    expect(await off.json()).toEqual({ unsubscribed: true });
    expect(subscriptions()).toEqual([]);
  });

  test("Notify me registers the service worker, which shows a push as the server sends it", async () => {
    await page.goto(`${base}/phone`);
    await page.locator("#notify-button").click();
    // Headless Chromium has no push service: the subscribe itself may fail there (the page says why),
    // but the worker is registered first, and it is what shows every push.
    const scope = await waitFor("the service worker to be active", () =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.scriptURL),
    15000);
    expect(new URL(scope).pathname).toBe("/sw.js");

    const cdp = await context.newCDPSession(page);
    let registrationId = "";
    cdp.on("ServiceWorker.workerRegistrationUpdated", (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
      for (const r of e.registrations) if (r.scopeURL === `${base}/`) registrationId = r.registrationId;
    });
    await cdp.send("ServiceWorker.enable");
    await waitFor("the worker's registration id", () => registrationId);
    const payload = { title: "ws: approval waiting", body: "pane 3 (claude) asks to use Bash", tag: "ws-approval-3", url: "https://evil.example/phish" };
    // A push reaching a worker that is still starting can be dropped by the DevTools path: it is sent
    // again each second until shown (the tag makes a second one replace the first, never add to it).
    let sentAt = 0;
    const shown = await waitFor("the worker to show the notification", async () => {
      if (Date.now() - sentAt > 1000) {
        sentAt = Date.now();
        await cdp.send("ServiceWorker.deliverPushMessage", { origin: base, registrationId, data: JSON.stringify(payload) });
      }
      return page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration("/");
        const all = await reg!.getNotifications();
        return all.length === 1 && { title: all[0]!.title, body: all[0]!.body, tag: all[0]!.tag, data: all[0]!.data };
      });
    }, 15000, 100);
    // A url of another origin is never opened: tapping goes to this ws web's inbox.
    expect(shown).toEqual({ title: payload.title, body: payload.body, tag: payload.tag, data: { url: `${base}/phone` } });
  }, 40_000);

  test("the switch subscribes with ws's key and hands the subscription over, and Stop notifying takes it back", async () => {
    // The browser's push service stood in for (headless Chromium refuses pushManager.subscribe):
    // the rest, the key fetched, the POSTs with the browser's own cookie and Origin, is the page's.
    const sub = aSubscription("http://127.0.0.1:9/push/phone-2");
    const phone = await context.newPage();
    await phone.addInitScript((json) => {
      const w = window as unknown as { wsKeyAsked?: unknown; wsSubscribed?: boolean };
      const fake = { endpoint: json.endpoint, toJSON: () => json, unsubscribe: async () => ((w.wsSubscribed = false), true) };
      PushManager.prototype.subscribe = async (o?: PushSubscriptionOptionsInit) => {
        w.wsKeyAsked = o?.applicationServerKey;
        w.wsSubscribed = true;
        return fake as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => (w.wsSubscribed ? (fake as unknown as PushSubscription) : null);
    }, sub);
    await phone.goto(`${base}/phone`);
    const button = phone.locator("#notify-button");
    await button.click();
    await waitFor("the subscription to reach the state dir", () => subscriptions().some((x) => x.endpoint === sub.endpoint));
    await waitFor("the switch to say it is on", async () => (await button.textContent()) === "Stop notifying");
    const key = JSON.parse(readFileSync(pushFile("vapid.json"), "utf8")).publicKey;
    expect(await phone.evaluate(() => (window as unknown as { wsKeyAsked: unknown }).wsKeyAsked)).toBe(key);
    await button.click();
    await waitFor("the subscription to be forgotten", () => !subscriptions().some((x) => x.endpoint === sub.endpoint));
    await waitFor("the switch to say it is off", async () => (await button.textContent()) === "Notify me");
    await phone.close();
  }, 30_000);
});
