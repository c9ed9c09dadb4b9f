// ws push test (src/features/push/try.ts): what a notification does with this keys.toml, now.
import { CliError, globals, print, printResult } from "./common";

export async function pushTest(): Promise<void> {
  const { sendTestNotification } = await import("../features/push/try");
  const { problems, outcomes, phones } = await sendTestNotification();
  if (globals.json) printResult("push_test", { problems, outcomes, phones });
  else {
    for (const p of problems) print(`keys.toml: ${p}`);
    if (!outcomes.length) print(phones === 0 ? "nowhere to send: no phone subscribed (ws web's phone page), and keys.toml's [push] names no command or url" : "nothing sent");
    for (const o of outcomes) print(`${o.ok ? "sent" : "failed"}: ${o.to}: ${o.said}`);
  }
  if (!outcomes.length || outcomes.some((o) => !o.ok)) throw new CliError(outcomes.length ? "some destinations failed" : "nothing sent");
}
