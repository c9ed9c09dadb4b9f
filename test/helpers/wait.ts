// Wait on a condition with a deadline: tests never sleep a fixed time.
export async function waitFor<T>(
  check: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  what: string,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
    await Bun.sleep(everyMs); // poll interval, bounded by the deadline above
  }
}
