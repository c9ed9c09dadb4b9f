// ws approval-hook when it comes through the CLI (src/main.ts runs it on a fast path first).
import type { HandlerInput } from "./handlers";

export async function approvalHook({ words }: HandlerInput): Promise<void> {
  await (await import("./approval-hook")).main(words);
}
