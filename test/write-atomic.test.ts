// Atomic writes (src/write-atomic.ts) interrupted half way: its two writers, the save (async, through
// src/features/persistence/store.ts) and an agent's settings file (sync, `ws hooks install`,
// src/features/agents/hooks-install.ts). A real
// failure mid-write comes from a file size limit (ulimit -f, SIGXFSZ ignored so write() fails with
// EFBIG) in a child process: the old file must stay intact, with its mode, and no temp file remain.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeAtomic, writeAtomicSync } from "../src/write-atomic";

const SRC = join(import.meta.dir, "../src");
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ws-atomic-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o7777;
const others = (keep: string[]) => readdirSync(dir).filter((n) => !keep.includes(n));

/** Run `code` (a module body) in a child bun whose files may be at most `blocks` KiB. */
function withFileLimit(blocks: number, code: string): string {
  const script = join(dir, "child.ts");
  writeFileSync(script, code);
  const r = Bun.spawnSync(["bash", "-c", `trap '' XFSZ; ulimit -f ${blocks}; exec "$0" "$1"`, process.execPath, script], { stdout: "pipe", stderr: "pipe" });
  return r.stdout.toString() + r.stderr.toString();
}

test("a save cut off by a full disk (EFBIG here) leaves the old save as it was and no temp file", () => {
  const save = join(dir, "default.session");
  writeFileSync(save, "the old save\n");
  chmodSync(save, 0o600);
  const out = withFileLimit(
    64,
    `import { writeAtomic } from ${JSON.stringify(join(SRC, "write-atomic.ts"))};
     try { await writeAtomic(${JSON.stringify(save)}, [new Uint8Array(40_000).fill(65), new Uint8Array(200_000).fill(66)]); console.log("written"); }
     catch (e) { console.log("failed:", e.code); }`,
  );
  expect(out).toContain("failed: EFBIG");
  expect(readFileSync(save, "utf8")).toBe("the old save\n");
  expect(modeOf(save)).toBe(0o600);
  expect(others(["default.session", "child.ts"])).toEqual([]);
});

test("an uninterrupted save replaces the old one whole, 0600, with no temp file left", async () => {
  const save = join(dir, "default.session");
  writeFileSync(save, "the old save\n");
  chmodSync(save, 0o644);
  const data = Uint8Array.from({ length: 300_000 }, (_, i) => i & 0xff);
  await writeAtomic(save, [data.subarray(0, 1000), data.subarray(1000)]);
  expect(Buffer.from(readFileSync(save)).equals(Buffer.from(data))).toBe(true);
  expect(modeOf(save)).toBe(0o600); // a save may hold secrets typed in a pane: never readable by others
  expect(others(["default.session"])).toEqual([]);
});

test("ws hooks install cut off mid-write keeps the settings file, its mode, and leaves no temp file", () => {
  const file = join(dir, "settings.json");
  // Just under 4 KiB: the backup (the same bytes) fits the limit, the file with ws's hooks does not.
  const before = `{\n  "model": "opus",\n  "note": "${"x".repeat(4000 - 40)}"\n}\n`;
  writeFileSync(file, before);
  chmodSync(file, 0o640);
  const out = withFileLimit(
    4,
    `import { installClaude, runHooks } from ${JSON.stringify(join(SRC, "features/agents/hooks-install.ts"))};
     if (installClaude(${JSON.stringify(before)}, ["ws"]).length <= 4096) throw new Error("the test's file is too small to be cut off");
     try { runHooks({ action: "install", target: "claude", file: ${JSON.stringify(file)}, ws: ["ws"] }); console.log("written"); }
     catch (e) { console.log("failed:", e.code); }`,
  );
  expect(out).toContain("failed: EFBIG");
  expect(readFileSync(file, "utf8")).toBe(before);
  expect(modeOf(file)).toBe(0o640);
  expect(readdirSync(dir).filter((n) => n.includes(".tmp-"))).toEqual([]);
});

test("the synchronous writer cut off mid-write keeps the old file and its mode, and leaves no temp file", () => {
  const file = join(dir, "projects.toml");
  writeFileSync(file, "the old file\n");
  chmodSync(file, 0o640);
  const out = withFileLimit(
    8,
    `import { writeAtomicSync } from ${JSON.stringify(join(SRC, "write-atomic.ts"))};
     try { writeAtomicSync(${JSON.stringify(file)}, "x".repeat(64 * 1024), { mode: 0o640 }); console.log("written"); }
     catch (e) { console.log("failed:", e.code); }`,
  );
  expect(out).toContain("failed: EFBIG");
  expect(readFileSync(file, "utf8")).toBe("the old file\n");
  expect(modeOf(file)).toBe(0o640);
  expect(others(["projects.toml", "child.ts"])).toEqual([]);
});

test("the synchronous writer gives the new file the mode asked for exactly, whatever the umask", () => {
  const file = join(dir, "settings.json");
  writeFileSync(file, "old");
  const mask = process.umask(0o077);
  try {
    writeAtomicSync(file, "new", { mode: 0o644 });
  } finally {
    process.umask(mask);
  }
  expect(readFileSync(file, "utf8")).toBe("new");
  expect(modeOf(file)).toBe(0o644);
  expect(others(["settings.json"])).toEqual([]);
});
