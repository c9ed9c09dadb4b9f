// Notifications that reach the person away from the terminal (docs/notify.md "Push"): on an
// approval waiting, an agent blocked or done, and a `ws ask` question, a notice goes to the
// browsers subscribed through `ws web` and to keys.toml's push.command and push.url, each at most
// push.rate a minute.
import { parseKeysToml, readKeysToml } from "../../keys-toml";
import type { Feature } from "../feature";
import { readPushConfig } from "./config";
import { noticeFor } from "./notices";
import { sinksFor } from "./sinks";

/** An agent blocked right after its approval was notified is the same wait: one notice, not two. */
const SAME_WAIT_MS = 10_000;

export default function pushFeature(): Feature {
  let off: (() => void) | undefined;
  return {
    name: "push",
    start(d) {
      let raw: unknown;
      try {
        raw = parseKeysToml(readKeysToml()).push;
      } catch {} // no keys.toml, or one the keymap reports on: the defaults
      const { config, problems } = readPushConfig(raw);
      for (const p of problems) d.log.warn(`keys.toml: ${p}`);
      const sinks = sinksFor(config, process.env);
      const approvalAt = new Map<number, number>();
      off = d.session.bus.on((e) => {
        if (e.type === "pane_closed") approvalAt.delete(e.pane);
        const n = noticeFor(e, (pane) => d.session.panes.get(pane)?.program, config.details);
        if (!n || !config.events.has(n.event)) return;
        if (n.event === "approval" && n.pane !== undefined) approvalAt.set(n.pane, Date.now());
        if (n.event === "blocked" && n.pane !== undefined && Date.now() - (approvalAt.get(n.pane) ?? 0) < SAME_WAIT_MS) return;
        for (const { sink, limit } of sinks) {
          if (limit.take())
            sink.send(n).then(
              (outcomes) => {
                for (const o of outcomes) if (!o.ok) d.log.warn(`push: ${o.to}: ${o.said}`);
              },
              (err: Error) => d.log.warn(`push: ${sink.name}: ${err.message}`),
            );
          else d.log.warn(`push: ${sink.name} is over its rate limit (${config.rate} a minute); a ${n.event} notification is dropped`);
        }
      });
    },
    stop() {
      off?.();
    },
  };
}
