// The compiled binary is one self-contained file: copied to an empty directory it runs the daemon
// and the CLI with no node_modules and no sources beside it.
import { expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, TestServer } from "./harness";

test("dist/ws copied to an empty directory runs the daemon and the CLI", async () => {
  const dist = join(ROOT, "dist/ws");
  if (!existsSync(dist)) {
    const b = Bun.spawn([process.execPath, "run", "build"], { cwd: ROOT, stdout: "ignore", stderr: "pipe" });
    expect(await b.exited).toBe(0);
  }
  const empty = mkdtempSync(join(tmpdir(), "ws-bin-"));
  const bin = join(empty, "ws");
  copyFileSync(dist, bin);
  require("node:fs").chmodSync(bin, 0o755);
  const s = new TestServer();
  const run = async (args: string[]) => {
    const p = Bun.spawn([bin, ...args], { cwd: empty, env: { ...s.env, PATH: "/usr/bin:/bin" }, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { out, err, code };
  };
  try {
    expect((await run(["--version"])).code).toBe(0);
    const started = await run(["start"]);
    expect(started.code).toBe(0);
    const list = await run(["--json", "workspace", "list"]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out).workspaces[0].name).toBe("main");
    const pane = await run(["split", "1", "--", "sh", "-c", "echo from-the-binary; exec cat"]);
    expect(pane.code).toBe(0);
    await s.waitScreen(Number(pane.out.trim()), "from-the-binary");
    expect((await run(["kill-server"])).code).toBe(0);
  } finally {
    await run(["kill-server"]);
    rmSync(empty, { recursive: true, force: true });
    await s.stop();
  }
});
