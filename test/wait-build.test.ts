// A script that waits for a build's output with `ws wait` (one wait_for, woken by the pane's
// output) instead of a poll loop of `ws pane read`, then reads the result.
import { expect, test } from "bun:test";
import { useServer } from "./harness";

const s = useServer();

test("ws wait output blocks until the build says it is done, then ws pane read gets the result", async () => {
  const build = "read go; for step in compile link test; do echo \"[build] $step\"; sleep 0.3; done; echo 'BUILD OK in 0.9s'; exec cat";
  const pane = Number((await s.ok(["tab", "new", "--name", "build", "--cwd", "/tmp", "--", "sh", "-c", build])).trim());
  expect(pane).toBeGreaterThan(0);
  const started = Date.now();
  // The script: start the build, wait for its verdict, read the last lines.
  const script = `
set -e
ws pane send ${pane} go --enter
verdict=$(ws wait output ${pane} 'BUILD (OK|FAILED)' --timeout 20000)
echo "verdict: $verdict"
ws pane read ${pane} --source recent --lines 2
`;
  const ws = `${process.execPath} ${import.meta.dir}/../src/main.ts`;
  const proc = Bun.spawn(["bash", "-c", `ws() { ${ws} "$@"; }\n${script}`], { env: s.env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  expect(out).toBe("verdict: BUILD OK\n[build] test\nBUILD OK in 0.9s\n");
  // It waited for the build (three 0.3 s steps), not less.
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
});

test("a build that fails is seen as failed; a build that never ends times out with status 124", async () => {
  const pane = Number((await s.ok(["tab", "new", "--cwd", "/tmp", "--", "sh", "-c", "echo compiling; sleep 0.2; echo 'error: x'; echo 'BUILD FAILED'; exec cat"])).trim());
  expect((await s.run(["wait", "output", String(pane), "BUILD (OK|FAILED)"])).stdout).toBe("BUILD FAILED\n");
  const hang = Number((await s.ok(["tab", "new", "--cwd", "/tmp", "--", "cat"])).trim());
  const r = await s.run(["wait", "output", String(hang), "BUILD (OK|FAILED)", "--timeout", "300"]);
  expect(r.code).toBe(124);
  expect(r.stderr).toContain("timed out after 300 ms");
});

test("ws wait exit prints the exit code", async () => {
  const pane = Number((await s.ok(["tab", "new", "--cwd", "/tmp", "--", "sh", "-c", "read x; exit 5"])).trim());
  const waiting = s.run(["wait", "exit", String(pane)]);
  await s.ok(["pane", "send", String(pane), "--enter"]);
  expect((await waiting).stdout).toBe("5\n");
});
