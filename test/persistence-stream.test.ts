// The streamed save (save-writer.ts): a pane that printed nothing since the last save is not
// read again but copied from the file written last, byte for byte; a last file that was removed
// or changed meanwhile is never trusted, every pane's text is taken again.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decode, encode, type SaveBody } from "../src/features/persistence/format";
import { PersistenceService } from "../src/features/persistence/service";
import { Session } from "../src/model/session";
import { paneBaseEnv } from "../src/model/launch";
import { waitFor } from "./harness";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A session with two `cat` panes, its persistence service saving into a temporary directory,
 * and a count of each pane's text reads. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), "ws-save-stream-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const s = new Session({ socketPath: "/tmp/ws-unit.sock", baseEnv: paneBaseEnv({ ...process.env, SHELL: "/bin/sh" }), onEmpty() {} });
  cleanups.push(async () => void (await s.killAll("SIGKILL")));
  s.newWorkspace("main", { cwd: "/tmp", argv: ["cat"] });
  const second = s.split(1, { right: true, focus: false, argv: ["cat"], cwd: "/tmp" });
  const path = join(dir, "default.session");
  const quiet = { info() {}, warn() {}, error() {} };
  const svc = new PersistenceService(s, { path, server: "default", ws: "test", log: quiet, debounceMs: 60_000, scrollbackMs: 60_000 });
  svc.start();
  cleanups.push(() => svc.stop());
  const reads = new Map<number, number>();
  for (const p of s.panes.values()) {
    const e = p.emulator;
    const orig = e.captureText.bind(e);
    e.captureText = (reuse) => (reads.set(p.id, (reads.get(p.id) ?? 0) + 1), orig(reuse));
  }
  const first = s.pane(1);
  return { s, svc, path, first, second, reads };
}

const texts = (body: SaveBody) => body.workspaces[0]!.tabs[0]!.panes.map((p) => p.scrollback);

async function type(p: { write(d: string): void; readText(): string[] }, text: string) {
  p.write(`${text}\n`);
  await waitFor(`cat's echo of ${text}`, () => p.readText().join("\n").includes(text));
}

test("a quiet pane's text is copied from the last save, not read; the file checks out", async () => {
  const { svc, path, first, second, reads } = setup();
  await type(first, "one-before");
  await type(second, "two-before");
  await svc.save();
  const before = texts(decode(readFileSync(path)).body);
  expect(before[0]).toContain("one-before");
  expect(before[1]).toContain("two-before");
  reads.clear();
  await type(first, "one-after");
  await svc.save();
  const bytes = readFileSync(path);
  const { header, body } = decode(bytes);
  expect(texts(body)[0]).toContain("one-after");
  expect(texts(body)[1]).toBe(before[1]!);
  expect(reads.get(first.id)).toBe(1);
  expect(reads.get(second.id)).toBeUndefined();
  // (decode checked the header's length and checksum against the body streamed.)
  expect(bytes.length).toBe(bytes.indexOf(10) + 1 + header.bytes + 1);
}, 30_000);

test("a last save changed or removed meanwhile is not copied from: every pane is read again", async () => {
  const { svc, path, first, second, reads } = setup();
  await type(second, "two-real");
  await svc.save();
  // Someone else's bytes where the quiet pane's text was.
  const { header, body } = decode(readFileSync(path));
  body.workspaces[0]!.tabs[0]!.panes[1]!.scrollback = "two-FORGED".padEnd(texts(body)[1]!.length, "x");
  writeFileSync(path, encode(body, { ws: "test", server: "default", savedAt: new Date(header.saved_at) }));
  reads.clear();
  await type(first, "one-after");
  await svc.save();
  const after = texts(decode(readFileSync(path)).body);
  expect(after[0]).toContain("one-after");
  expect(after[1]).toContain("two-real");
  expect(after[1]).not.toContain("FORGED");
  expect(reads.get(second.id)).toBe(1);
  // Removed: the next save reads the pane again and writes a whole file.
  unlinkSync(path);
  await type(first, "one-later");
  await svc.save();
  const later = texts(decode(readFileSync(path)).body);
  expect(later[0]).toContain("one-later");
  expect(later[1]).toContain("two-real");
}, 30_000);
