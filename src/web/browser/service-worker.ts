// The phone page's service worker (served as /sw.js, scope /): it shows each Web Push the server
// sends (JSON {title, body, tag, url}, docs/notify.md "Push") and, when it is tapped, focuses a
// page of ws web already open at its url or opens one. Only this origin's pages are opened.

interface PushEventLike extends Event {
  data: { json(): unknown } | null;
  waitUntil(p: Promise<unknown>): void;
}
interface NotificationClickLike extends Event {
  notification: Notification;
  waitUntil(p: Promise<unknown>): void;
}
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface WorkerScope {
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: { matchAll(o: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClientLike[]>; openWindow(url: string): Promise<unknown>; claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, f: (e: Event) => void): void;
}
const sw = self as unknown as WorkerScope;

const INBOX = "/phone";

/** The url a push names, if it is one of this origin's; else the inbox. */
function sameOriginUrl(url: unknown): string {
  try {
    const u = new URL(typeof url === "string" ? url : INBOX, sw.location.origin);
    return u.origin === sw.location.origin ? u.href : new URL(INBOX, sw.location.origin).href;
  } catch {
    return new URL(INBOX, sw.location.origin).href;
  }
}

sw.addEventListener("install", () => void sw.skipWaiting());
sw.addEventListener("activate", (e) => (e as PushEventLike).waitUntil(sw.clients.claim()));

sw.addEventListener("push", (event) => {
  const e = event as PushEventLike;
  let m: { title?: unknown; body?: unknown; tag?: unknown; url?: unknown } = {};
  try {
    m = (e.data?.json() ?? {}) as typeof m;
  } catch {} // not JSON: a notice with the default title still says ws wants the person
  const title = typeof m.title === "string" && m.title ? m.title : "ws";
  e.waitUntil(
    sw.registration.showNotification(title, {
      body: typeof m.body === "string" ? m.body : "",
      ...(typeof m.tag === "string" && m.tag ? { tag: m.tag } : {}),
      data: { url: sameOriginUrl(m.url) },
    }),
  );
});

sw.addEventListener("notificationclick", (event) => {
  const e = event as NotificationClickLike;
  e.notification.close();
  const url = sameOriginUrl((e.notification.data as { url?: unknown } | null)?.url);
  e.waitUntil(
    sw.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      const page = open.find((c) => c.url === url) ?? open.find((c) => new URL(c.url).pathname === new URL(url).pathname);
      return page ? page.focus() : sw.clients.openWindow(url);
    }),
  );
});
