// The CLI's global flags: one parser (src/cli/global-flags.ts) for the CLI and for what a remote run
// hands the far ws.
import { expect, test } from "bun:test";
import { takeGlobals, withoutHostFlags } from "../src/cli/global-flags";

test("global flags anywhere before --; the rest is the command", () => {
  const { globals, rest } = takeGlobals(["-L", "dev", "split", "--json", "-H", "box", "--below", "--timeout=50", "--", "-H", "x"]);
  expect(globals).toEqual({ json: true, name: "dev", hosts: ["box"], timeoutMs: 50 });
  expect(rest).toEqual(["split", "--below", "--", "-H", "x"]);
  expect(takeGlobals(["-Lw", "--socket-name=v", "--host=a", "--host", "b", "--all-hosts", "--local", "--timeout", "x"]).globals).toEqual({ json: false, name: "v", hosts: ["a", "b"], allHosts: true, local: true, timeoutMs: NaN });
});

test("a remote run drops only the host flags, in place, and nothing after --", () => {
  expect(withoutHostFlags(["-H", "box", "-L", "dev", "--json", "pane", "read", "--host=b", "--all-hosts", "--", "-H", "x"])).toEqual(["-L", "dev", "--json", "pane", "read", "--", "-H", "x"]);
  // A trailing -H has no host word to take.
  expect(withoutHostFlags(["list", "-H"])).toEqual(["list"]);
  // --timeout keeps its value word with it.
  expect(withoutHostFlags(["--timeout", "5", "-H", "h", "wait"])).toEqual(["--timeout", "5", "wait"]);
});
