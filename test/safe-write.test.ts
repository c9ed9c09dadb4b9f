// safe-write on the real filesystem: a link anywhere under the root (the file itself, a parent, a
// directory made a link), a FIFO with and without a reader, a link to /dev/zero, "..": each is
// refused by name and nothing outside the root changes; what is allowed is written.
import { afterAll, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "./harness";
import { mkdirInside, removeEmptyDirsInside, removeInside, symlinkInside, writeFileInside, WriteRefused } from "../src/safe-write";

const base = mkdtempSync(join(tmpdir(), "ws-safe-write-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
/** A fresh root (the tree) and an outside directory with a victim file. */
function setup(): { root: string; outside: string; victim: string } {
  const at = join(base, String(++n));
  const root = join(at, "tree");
  const outside = join(at, "outside");
  mkdirSync(root, { recursive: true });
  mkdirSync(outside);
  const victim = join(outside, ".bashrc");
  writeFileSync(victim, "mine\n");
  return { root, outside, victim };
}

async function refused(p: Promise<unknown>): Promise<WriteRefused> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(WriteRefused);
  return e as WriteRefused;
}

test("writes a file, making its directories; rewrites it whole", async () => {
  const { root } = setup();
  await writeFileInside(root, "a/b/c.txt", "one two\n");
  await writeFileInside(root, "a/b/c.txt", "x\n");
  expect(readFileSync(join(root, "a/b/c.txt"), "utf8")).toBe("x\n");
});

test("a link as the file, as a parent, or as a directory to make: refused, the target untouched", async () => {
  const { root, outside, victim } = setup();
  symlinkSync(victim, join(root, "pr.md"));
  expect((await refused(writeFileInside(root, "pr.md", "evil"))).code).toBe("LINK");
  symlinkSync(outside, join(root, "dir"));
  const e = await refused(writeFileInside(root, "dir/.bashrc", "evil"));
  expect(e).toMatchObject({ code: "LINK", path: join(root, "dir") });
  expect(e.message).toContain("is a symbolic link");
  expect((await refused(mkdirInside(root, "dir/sub"))).code).toBe("LINK");
  expect((await refused(symlinkInside(root, "dir/l", "/etc/passwd"))).code).toBe("LINK");
  expect((await refused(removeInside(root, "dir/.bashrc"))).code).toBe("LINK");
  await removeEmptyDirsInside(root, "dir"); // a link: left alone
  expect(readFileSync(victim, "utf8")).toBe("mine\n");
  expect(readdirSync(outside)).toEqual([".bashrc"]);
  expect(lstatSync(join(root, "dir")).isSymbolicLink()).toBe(true);
});

test("a FIFO (no reader), a link to /dev/zero, a file where a directory goes, and ..: refused at once", async () => {
  const { root } = setup();
  Bun.spawnSync(["mkfifo", join(root, "fifo")]);
  expect(await refused(writeFileInside(root, "fifo", "x"))).toMatchObject({ code: "NOT_REGULAR" });
  symlinkSync("/dev/zero", join(root, "zero"));
  expect((await refused(writeFileInside(root, "zero", "x"))).code).toBe("LINK");
  writeFileSync(join(root, "file"), "f\n");
  expect((await refused(writeFileInside(root, "file/x", "x"))).code).toBe("NOT_DIRECTORY");
  expect((await refused(writeFileInside(root, "../escape", "x"))).code).toBe("ESCAPES");
  expect(existsSync(join(root, "..", "escape"))).toBe(false);
});

test("a FIFO with a reader waiting is refused too, and nothing is written into it", async () => {
  const { root } = setup();
  const fifo = join(root, "fifo");
  Bun.spawnSync(["mkfifo", fifo]);
  const reader = Bun.spawn(["timeout", "5", "cat", fifo], { stdout: "pipe" });
  try {
    // Once the reader holds the FIFO open, the non-blocking open for writing succeeds, and fstat
    // refuses it.
    const e = await waitFor("the open to find the reader", async () => {
      const r = await refused(writeFileInside(root, "fifo", "evil"));
      return r.message.includes("with no reader") ? undefined : r;
    });
    expect(e).toMatchObject({ code: "NOT_REGULAR", message: `${join(root, "fifo")} is not a regular file (a FIFO)` });
  } finally {
    reader.kill();
    await reader.exited;
  }
  expect(await new Response(reader.stdout).text()).toBe("");
});

test("links made and files removed inside; a removed link's target stays; empty directories go", async () => {
  const { root, victim } = setup();
  await symlinkInside(root, "x/link", victim);
  expect(readlinkSync(join(root, "x/link"))).toBe(victim);
  await removeInside(root, "x/link");
  expect(existsSync(victim)).toBe(true);
  await removeInside(root, "x/missing");
  await removeInside(root, "nowhere/missing");
  await removeEmptyDirsInside(root, "x");
  expect(existsSync(join(root, "x"))).toBe(false);
});
