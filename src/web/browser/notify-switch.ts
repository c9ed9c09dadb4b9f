// The phone page's "Notify me" switch: registers the service worker (/sw.js), subscribes with ws's
// VAPID public key (from /api/push/key) and hands the subscription to ws web (/api/push/subscribe),
// which keeps it where the server sends from; "Stop notifying" undoes both.

type Post = (path: string, body: unknown) => Promise<unknown>;

async function current(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return (await reg?.pushManager.getSubscription()) ?? null;
}

async function turnOn(post: Post): Promise<void> {
  if ((await Notification.requestPermission()) !== "granted") throw new Error("this browser does not allow notifications from this page");
  const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  // The key as base64url, as the Push API takes it.
  const { key } = (await (await fetch("api/push/key")).json()) as { key: string };
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await post("api/push/subscribe", sub.toJSON());
}

async function turnOff(post: Post): Promise<void> {
  const sub = await current();
  if (!sub) return;
  await post("api/push/unsubscribe", { endpoint: sub.endpoint });
  await sub.unsubscribe();
}

/** Draws the switch into `root` once (the state poll leaves it alone). */
export async function notifySwitch(root: HTMLElement, post: Post): Promise<void> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    root.replaceChildren(Object.assign(document.createElement("p"), { textContent: "This browser can't take notifications (it needs https, or this machine's own address).", className: "empty" }));
    return;
  }
  const button = Object.assign(document.createElement("button"), { id: "notify-button" });
  const said = Object.assign(document.createElement("span"), { className: "notify-said" });
  let on = (await current().catch(() => null)) !== null;
  const draw = () => {
    button.textContent = on ? "Stop notifying" : "Notify me";
    root.dataset.subscribed = String(on);
  };
  button.onclick = async () => {
    button.disabled = true;
    said.textContent = "";
    try {
      await (on ? turnOff(post) : turnOn(post));
      on = !on;
    } catch (e) {
      said.textContent = ` ${(e as Error).message}`;
    }
    button.disabled = false;
    draw();
  };
  draw();
  root.replaceChildren(button, said);
}
