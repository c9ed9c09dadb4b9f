// The client's own lstat (glibc through src/platform/ffi.ts) reads exactly what node:fs reads,
// for every kind of entry the socket checks meet; and on this Linux machine it is the one in use.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clientLibc } from "../src/platform/client-libc";
import { lstatEntry, lstatViaLibc, lstatViaNode } from "../src/platform/lstat";

const dir = mkdtempSync(join(tmpdir(), "ws-lstat-"));
const listener = Bun.listen({ unix: join(dir, "s.sock"), socket: { data() {} } });
afterAll(() => {
  listener.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test("glibc's lstat is used here (Linux with glibc on x64 or arm64)", async () => {
  if (process.platform !== "linux") return;
  expect(clientLibc()).not.toBeNull();
});

test("libc and node:fs agree on directories, files, symlinks, sockets and missing paths", async () => {
  mkdirSync(join(dir, "private"), { mode: 0o700 });
  chmodSync(join(dir, "private"), 0o700);
  mkdirSync(join(dir, "open"));
  chmodSync(join(dir, "open"), 0o755);
  writeFileSync(join(dir, "file"), "x");
  chmodSync(join(dir, "file"), 0o640);
  symlinkSync(join(dir, "private"), join(dir, "link"));
  const cases = ["private", "open", "file", "link", "s.sock", "missing", "file/below"].map((n) => join(dir, n));
  const viaLibc = cases.map(lstatViaLibc);
  const viaNode = cases.map(lstatViaNode);
  if (process.platform === "linux") expect(viaLibc).toEqual(viaNode);
  expect(cases.map(lstatEntry)).toEqual(viaNode);
  const uid = process.getuid!();
  expect(viaNode).toEqual([
    { kind: "directory", mode: 0o700, uid },
    { kind: "directory", mode: 0o755, uid },
    { kind: "file", mode: 0o640, uid },
    { kind: "symlink", mode: expect.any(Number), uid },
    { kind: "socket", mode: expect.any(Number), uid },
    undefined,
    undefined,
  ]);
});

test("a path with a NUL byte reads as absent, not as the path before it", async () => {
  expect(lstatEntry(join(dir, "file") + "\0x")).toBeUndefined();
});
