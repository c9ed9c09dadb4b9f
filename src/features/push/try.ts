// `ws push test`: one notification to every destination keys.toml's [push] names, now (no rate
// limit), and how each went, so the person can check a setup without waiting for an agent.
import { parseKeysToml, readKeysToml } from "../../keys-toml";
import { readPushConfig } from "./config";
import { listSubscriptions } from "./subscriptions";
import { type Outcome, sinksFor } from "./sinks";
import type { Env } from "./store";

export async function sendTestNotification(env: Env = process.env): Promise<{ problems: string[]; outcomes: Outcome[]; phones: number }> {
  let raw: unknown;
  try {
    raw = parseKeysToml(readKeysToml(env)).push;
  } catch {}
  const { config, problems } = readPushConfig(raw);
  const notice = { event: "notify" as const, title: "ws: a test notification", body: "ws push test: notifications reach you here", tag: "test" };
  const outcomes = (await Promise.all(sinksFor(config, env).map(({ sink }) => sink.send(notice)))).flat();
  return { problems, outcomes, phones: config.web ? listSubscriptions(env).length : 0 };
}
