// Where a notice goes: the subscribed browsers (Web Push), a program (keys.toml push.command) and an
// HTTP endpoint in ntfy's form (push.url). Each is rate-limited apart (rate.ts) and never throws: a
// destination that fails is logged, and the event that caused it is not held up.
import type { Logger } from "../../log";
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

export interface Sink {
  name: string;
  send(n: Notice): Promise<void>;
}

export function webPushSink(env: Env, log: Logger): Sink {
  return {
    name: "web push",
    async send(n) {
      const subs = listSubscriptions(env);
      if (!subs.length) return;
      const keys = vapidKeys(env);
      await Promise.all(
        subs.map(async (sub) => {
          try {
            const r = await sendPush(sub, { title: n.title, body: n.body, tag: n.tag, url: PHONE_PAGE }, keys);
            if (r.gone) unsubscribe(sub.endpoint, env); // the browser unsubscribed, or its push service forgot it
            else if (r.status >= 300) log.warn(`push: ${new URL(sub.endpoint).origin} answered ${r.status}`);
          } catch (e) {
            log.warn(`push: ${new URL(sub.endpoint).origin}: ${(e as Error).message}`);
          }
        }),
      );
    },
  };
}

export function commandSink(argv: string[], log: Logger): Sink {
  let running = 0;
  return {
    name: "push.command",
    async send(n) {
      if (running >= MAX_RUNNING) return log.warn(`push: ${MAX_RUNNING} of push.command still run; this notification is dropped for it`);
      running++;
      try {
        // Title and body as arguments of their own: never through a shell.
        const p = Bun.spawn([...argv, n.title, n.body], {
          stdin: "ignore",
          stdout: "ignore",
          stderr: "ignore",
          env: { ...process.env, WS_PUSH_EVENT: n.event, ...(n.pane !== undefined ? { WS_PUSH_PANE: String(n.pane) } : {}) },
        });
        const timer = setTimeout(() => p.kill(), TIMEOUT_MS);
        const code = await p.exited;
        clearTimeout(timer);
        if (code !== 0) log.warn(`push: ${argv[0]} exited ${code}`);
      } catch (e) {
        log.warn(`push: can't run ${argv[0]}: ${(e as Error).message}`);
      } finally {
        running--;
      }
    },
  };
}

/** ntfy's form: the body is the message; title, tags, priority and click are query parameters. */
export function urlSink(url: string, headers: Record<string, string>, log: Logger): Sink {
  return {
    name: "push.url",
    async send(n) {
      const to = new URL(url);
      to.searchParams.set("title", n.title);
      to.searchParams.set("tags", n.event);
      to.searchParams.set("priority", n.event === "approval" || n.event === "blocked" ? "high" : "default");
      try {
        const r = await fetch(to, { method: "POST", headers, body: n.body, redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
        await r.arrayBuffer().catch(() => undefined);
        if (!r.ok) log.warn(`push: ${to.origin} answered ${r.status}`);
      } catch (e) {
        log.warn(`push: ${to.origin}: ${(e as Error).message}`);
      }
    },
  };
}

/** The destinations keys.toml asks for, each behind its own rate limit. */
export function sinksFor(config: PushConfig, env: Env, log: Logger): { sink: Sink; limit: RateLimit }[] {
  const sinks: Sink[] = [];
  if (config.web) sinks.push(webPushSink(env, log));
  if (config.command) sinks.push(commandSink(config.command, log));
  if (config.url) sinks.push(urlSink(config.url, config.headers, log));
  return sinks.map((sink) => ({ sink, limit: new RateLimit(config.rate) }));
}
