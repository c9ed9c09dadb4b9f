// The whole tree type-checks (sources, tests, benches): bun runs TypeScript without checking it.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT } from "./harness";

test("tsc --noEmit finds no type errors", async () => {
  const p = Bun.spawn([process.execPath, join(ROOT, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", ROOT], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  expect(out.split("\n").filter((l) => l.includes("error TS"))).toEqual([]);
  expect(code).toBe(0);
}, 120_000);
