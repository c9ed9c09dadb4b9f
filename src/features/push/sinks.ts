// Where a notice goes: the subscribed browsers (Web Push), a program (keys.toml push.command) and an
// HTTP endpoint in ntfy's form (push.url). Each is rate-limited apart (rate.ts) and says how each
// delivery went instead of throwing: the server logs failures, `ws push test` prints them all.
import type { PushConfig } from "./config";
import type { Notice } from "./notices";
import { RateLimit } from "./rate";
import { sendPush } from "./send";
import type { Env } from "./store";
import { listSubscriptions, unsubscribe } from "./subscriptions";
import { vapidKeys } from "./vapid";

/** Where the phone page is, relative to `ws web`'s address: tapping a notification opens it. */
export const PHONE_PAGE = "/phone";
const TIMEOUT_MS = 10_000;
/** Programs (push.command) running at once; past it a notice is dropped for that destination. */
const MAX_RUNNING = 4;

/** How one delivery went: `to` where (an origin, a program), `said` what came back. */
export interface Outcome {
  to: string;
  ok: boolean;
  said: string;
}

export interface Sink {
  name: string;
  send(n: Notice): Promise<Outcome[]>;
}

const failed = (to: string, e: unknown): Outcome => ({ to, ok: false, said: (e as Error).message ?? String(e) });

export function webPushSink(env: Env): Sink {
  return {
    name: "web push",
    async send(n) {
      const subs = listSubscriptions(env);
      if (!subs.length) return [];
      const keys = vapidKeys(env);
      return Promise.all(
        subs.map(async (sub): Promise<Outcome> => {
          const to = `web push ${new URL(sub.endpoint).origin}`;
          try {
            const r = await sendPush(sub, { title: n.title, body: n.body, tag: n.tag, url: PHONE_PAGE }, keys);
            // Gone: the browser unsubscribed, or its push service forgot it.
            if (r.gone) unsubscribe(sub.endpoint, env);
            return { to, ok: r.status < 300, said: r.gone ? `${r.status}: the subscription is gone, forgotten` : String(r.status) };
          } catch (e) {
            return failed(to, e);
          }
        }),
      );
    },
  };
}

export function commandSink(argv: string[], click?: string): Sink {
  let running = 0;
  const to = `push.command ${argv[0]}`;
  return {
    name: "push.command",
    async send(n) {
      if (running >= MAX_RUNNING) return [{ to, ok: false, said: `${MAX_RUNNING} still run; this notification is dropped for it` }];
      running++;
      try {
        // Title and body as arguments of their own: never through a shell.
        const p = Bun.spawn([...argv, n.title, n.body], {
          stdin: "ignore",
          stdout: "ignore",
          stderr: "ignore",
          env: {
            ...process.env,
            WS_PUSH_EVENT: n.event,
            ...(n.pane !== undefined ? { WS_PUSH_PANE: String(n.pane) } : {}),
            ...(click ? { WS_PUSH_CLICK: click } : {}),
          },
        });
        const timer = setTimeout(() => p.kill(), TIMEOUT_MS);
        const code = await p.exited;
        clearTimeout(timer);
        return [{ to, ok: code === 0, said: `exit ${code}` }];
      } catch (e) {
        return [failed(to, e)];
      } finally {
        running--;
      }
    },
  };
}

/** ntfy's form: the body is the message; title, tags, priority and click are query parameters. */
export function urlSink(url: string, headers: Record<string, string>, click?: string): Sink {
  return {
    name: "push.url",
    async send(n) {
      const to = new URL(url);
      to.searchParams.set("title", n.title);
      to.searchParams.set("tags", n.event);
      to.searchParams.set("priority", n.event === "approval" || n.event === "blocked" ? "high" : "default");
      if (click) to.searchParams.set("click", click);
      const where = `push.url ${to.origin}`;
      try {
        const r = await fetch(to, { method: "POST", headers, body: n.body, redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
        await r.arrayBuffer().catch(() => undefined);
        return [{ to: where, ok: r.ok, said: String(r.status) }];
      } catch (e) {
        return [failed(where, e)];
      }
    },
  };
}

/** The destinations keys.toml asks for, each behind its own rate limit. */
export function sinksFor(config: PushConfig, env: Env): { sink: Sink; limit: RateLimit }[] {
  const sinks: Sink[] = [];
  if (config.web) sinks.push(webPushSink(env));
  if (config.command) sinks.push(commandSink(config.command, config.click));
  if (config.url) sinks.push(urlSink(config.url, config.headers, config.click));
  return sinks.map((sink) => ({ sink, limit: new RateLimit(config.rate) }));
}
