// Help where people look: ws help [COMMAND], ws version and the man page (ws help --man, and
// dist/ws.1 from scripts/man-page.ts), all from the one command table --help reads.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandJsonByPath } from "../src/cli/message-table";
import { GLOBALS } from "../src/cli-table/globals";
import type { Command } from "../src/cli-table/spec";
import { roff } from "../src/cli/man-page";
import { TestServer } from "./harness";

const s = new TestServer();
const scratch = mkdtempSync(join(tmpdir(), "ws-man-"));
afterAll(async () => {
  await s.stop();
  rmSync(scratch, { recursive: true, force: true });
});
const table = Object.values(commandJsonByPath()).map((j) => JSON.parse(j) as Command);

test("ws help prints what --help prints: the command list, a group, one command", async () => {
  expect(await s.ok(["help"])).toBe(await s.ok(["--help"]));
  expect(await s.ok(["help", "pane", "send"])).toBe(await s.ok(["pane", "send", "--help"]));
  expect(await s.ok(["help", "pane"])).toBe(await s.ok(["pane", "--help"]));
  expect(await s.ok(["help", "split"])).toContain("usage: ws split");
  const wrong = await s.run(["help", "panne"]);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("unknown command panne (did you mean pane?)");
  // No server was needed, and none was started.
  expect(await s.run(["help"])).toMatchObject({ code: 0, stderr: "" });
}, 30_000);

test("ws version prints what --version prints; --json gives an object with v and type", async () => {
  const plain = await s.ok(["version"]);
  expect(plain).toBe(await s.ok(["--version"]));
  expect(plain).toMatch(/^\d+\.\d+\.\d+ \(\S+\)\n?$/);
  const json = JSON.parse(await s.ok(["--json", "version"]));
  expect(json).toMatchObject({ v: expect.any(Number), type: "version", version: plain.split(" ")[0] });
}, 30_000);

test("the man page lists every command of the table, its flags and the global flags, and renders cleanly", async () => {
  const page = await s.ok(["help", "--man"]);
  expect(page.startsWith(".\\\" Generated from ws's command table")).toBe(true);
  expect(page).toContain(".TH WS 1");
  for (const c of table) {
    expect(page).toContain(`.SS "ws ${roff(c.path)}`);
    for (const p of c.params) if (p.flag) expect(page).toContain(`\\fB${roff(p.flag.length === 1 ? `-${p.flag}` : `--${p.flag}`)}\\fR`);
  }
  for (const g of GLOBALS) for (const f of g.flags) expect(page).toContain(`\\fB${roff(f)}\\fR`);
  // No line starts as a roff request by accident: every line that starts with . is one of ours.
  for (const line of page.split("\n")) if (line.startsWith(".")) expect(line).toMatch(/^\.(\\"|TH|SH|SS|TP|PP|RS|RE|B|br)( |$)/);
  if (!Bun.which("groff")) return console.warn("groff is not installed: the rendering is not checked");
  const file = join(scratch, "ws.1");
  await Bun.write(file, page);
  const out = Bun.spawnSync(["groff", "-man", "-Tutf8", "-ww", file], { env: { ...process.env, MANWIDTH: "100" } });
  expect(out.stderr.toString()).toBe("");
  const text = out.stdout.toString().replace(/.\x08/g, "");
  expect(text).toContain("ws pane send [PANE] [TEXT] [--enter]");
  expect(text).toContain("--socket-name NAME");
}, 30_000);

test("scripts/man-page.ts writes the same page (what bun run build puts in dist/ws.1 and ./install.sh installs)", async () => {
  const out = join(scratch, "from-script.1");
  const p = Bun.spawnSync([process.execPath, "scripts/man-page.ts", out], { cwd: join(import.meta.dir, "..") });
  expect(p.exitCode).toBe(0);
  expect(readFileSync(out, "utf8")).toBe(await s.ok(["help", "--man"]));
}, 30_000);
