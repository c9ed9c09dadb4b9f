// ws push test (src/features/push/try.ts): what a notification does with this keys.toml, now.
import { CliError, globals, print, printResult } from "./common";

export async function pushTest(): Promise<void> {
  const { sendTestNotification } = await import("../features/push/try");
  const { problems, outcomes, phones } = await sendTestNotification();
  const failed = outcomes.filter((o) => !o.ok);
  const ok = outcomes.length > 0 && failed.length === 0;
  // Under --json a failure is the error object alone (docs/cli.md), so the result only when all went.
  if (globals.json) {
    if (ok) printResult("push_test", { problems, outcomes, phones });
  } else {
    for (const p of problems) print(`keys.toml: ${p}`);
    for (const o of outcomes) print(`${o.ok ? "sent" : "failed"}: ${o.to}: ${o.said}`);
  }
  if (!outcomes.length)
    throw new CliError(phones === 0 ? "nothing sent: no phone is subscribed (ws web's phone page), and keys.toml's [push] names no command or url" : "nothing sent");
  if (failed.length) throw new CliError(`${failed.length} of ${outcomes.length} failed: ${failed.map((o) => `${o.to}: ${o.said}`).join("; ")}`);
}
