// Every socket ws binds or reaches stays within macOS's sun_path (104 bytes with the NUL), whatever
// XDG_RUNTIME_DIR or TMPDIR is: the server's socket (a real server at the edge, and one byte past
// it refused clearly), ssh's ControlPath (moved to a short directory), a Neovim's socket, and the
// tmux shim's directory beside the socket.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nvimListenArgv, nvimSocketPath } from "../src/features/nvim/listen";
import { paneSocketPath, sharedPaneSocketPath, socketDir, socketPath } from "../src/paths";
import { SharedPaneSocket } from "../src/server/pane-socket-shared";
import { PaneSockets } from "../src/server/pane-sockets";
import { controlPath } from "../src/remote/ssh";
import { checkSocketPath, SOCKET_PATH_MAX, SocketPathTooLong, socketPathProblem } from "../src/platform/socket-check";
import { shimDir } from "../src/tmux-shim/state";
import { TestServer } from "./harness";

const bytes = (s: string) => Buffer.byteLength(s);
const base = realpathSync(mkdtempSync(join(tmpdir(), "ws-long-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A private directory under base whose path is `n` bytes long. */
function dirOfLength(n: number): string {
  const dir = `${base}/${"d".repeat(n - bytes(base) - 1)}`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  expect(bytes(dir)).toBe(n);
  return dir;
}

test("the one check: 103 bytes pass, 104 fail with a message naming the path and what to change", () => {
  expect(SOCKET_PATH_MAX).toBe(103);
  expect(socketPathProblem(`/${"a".repeat(102)}`)).toBeUndefined();
  const problem = socketPathProblem(`/${"a".repeat(103)}`)!;
  expect(problem).toContain("is 104 bytes, longer than the 103");
  expect(problem).toContain("XDG_RUNTIME_DIR or TMPDIR");
  expect(() => checkSocketPath(`/${"é".repeat(52)}`)).toThrow(SocketPathTooLong); // bytes, not characters
});

test("for every runtime directory length, each socket path stays within 103 bytes or is refused clearly", () => {
  const saved = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR, TMPDIR: process.env.TMPDIR };
  try {
    // From just past the temporary directory (macOS's is long already) to far past the limit.
    for (const n of [bytes(base) + 2, 70, 85, 90, 91, 100, 120, 200].filter((n) => n > bytes(base) + 1)) {
      for (const variable of ["XDG_RUNTIME_DIR", "TMPDIR"] as const) {
        const dir = dirOfLength(n);
        delete process.env.XDG_RUNTIME_DIR;
        process.env[variable] = dir;
        const env = { [variable]: dir };
        // The server's socket (and -L, and --local's): fits, or the check says so.
        for (const sock of [socketPath({}, env), socketPath({ name: "work" }, env), socketPath({ local: true }, env)]) {
          if (bytes(sock) <= SOCKET_PATH_MAX) expect(() => checkSocketPath(sock)).not.toThrow();
          else expect(() => checkSocketPath(sock)).toThrow(/longer than the 103/);
          // The shim's directory holds no socket, but stays as short as the socket it goes with.
          expect(bytes(shimDir(sock))).toBe(bytes(sock));
        }
        // ssh's master socket, with the 17 bytes ssh adds while binding it: always fits, in the
        // control directory when it can, else in /tmp/ws-ssh-UID.
        const control = controlPath("example.com");
        expect(bytes(control) + 17).toBeLessThanOrEqual(SOCKET_PATH_MAX);
        if (bytes(`${socketDir(env)}/ssh/`) + 20 + 17 <= SOCKET_PATH_MAX) expect(control.startsWith(`${socketDir(env)}/ssh/`)).toBe(true);
        else expect(control).toStartWith(`/tmp/ws-ssh-${process.getuid!()}/`);
        // A Neovim's socket: given when it fits; else the pane starts without one, and starting a
        // Neovim ws drives says why.
        const argv = nvimListenArgv(["nvim", "notes.md"], socketDir(env));
        if (argv.length > 2) expect(bytes(argv[2]!)).toBeLessThanOrEqual(SOCKET_PATH_MAX);
        else {
          expect(argv).toEqual(["nvim", "notes.md"]);
          expect(() => nvimSocketPath(socketDir(env))).toThrow(SocketPathTooLong);
        }
      }
    }
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test("a real server: its socket at exactly 103 bytes starts and answers; one byte more is refused clearly, leaving nothing", async () => {
  const probe = new TestServer();
  const room = SOCKET_PATH_MAX - bytes(`${probe.socketDir}/.sock`);
  rmSync(probe.root, { recursive: true, force: true });
  const fits = new TestServer({ name: "n".repeat(room) });
  expect(bytes(fits.sock)).toBe(SOCKET_PATH_MAX);
  await fits.start();
  try {
    expect((await fits.list()).length).toBe(1);
  } finally {
    await fits.stop();
  }
  const over = new TestServer({ name: "n".repeat(room + 1) });
  try {
    for (const args of [["start"], ["workspace", "list"], ["server"]]) {
      const r = await over.run(args);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`socket path ${over.sock} is 104 bytes, longer than the 103`);
    }
    expect(existsSync(over.socketDir) ? readdirSync(over.socketDir) : []).toEqual([]);
    const doctor = await over.run(["doctor"]);
    expect(doctor.stdout).toContain("is 104 bytes, longer than the 103");
  } finally {
    rmSync(over.root, { recursive: true, force: true });
  }
}, 60_000);

test("a pane's own socket: beside the main one while it fits in 103 bytes, else the pane gets the main socket, said once", () => {
  for (const n of [bytes(base) + 2, 70, 85, 90, 91, 100].filter((n) => n > bytes(base) + 1)) {
    const dir = dirOfLength(n);
    const main = `${dir}/default.sock`;
    if (bytes(main) > SOCKET_PATH_MAX) continue; // the server itself refuses this one
    const warnings: string[] = [];
    const sockets = new PaneSockets(main, (m) => warnings.push(m));
    for (const id of [1, 12345]) {
      const own = paneSocketPath(main, id);
      const got = sockets.socketFor(id);
      if (bytes(own) <= SOCKET_PATH_MAX) expect(got).toBe(own);
      else expect(got).toBe(main);
    }
    expect(warnings.length).toBe(bytes(paneSocketPath(main, 12345)) > SOCKET_PATH_MAX ? 1 : 0);
    if (warnings.length) expect(warnings[0]).toContain("longer than the 103");
    sockets.closeAll();
  }
});

test("the panes' shared socket: beside the main one while it fits in 103 bytes, else panes get the main socket, said once", () => {
  for (const n of [bytes(base) + 2, 70, 85, 90, 91, 100].filter((n) => n > bytes(base) + 1)) {
    const dir = dirOfLength(n);
    const main = `${dir}/default.sock`;
    if (bytes(main) > SOCKET_PATH_MAX) continue; // the server itself refuses this one
    const warnings: string[] = [];
    const shared = new SharedPaneSocket(main, (m) => warnings.push(m), () => new Map());
    const path = sharedPaneSocketPath(main);
    for (const id of [1, 12345]) expect(shared.socketFor(id)).toBe(bytes(path) <= SOCKET_PATH_MAX ? path : main);
    expect(warnings.length).toBe(bytes(path) > SOCKET_PATH_MAX ? 1 : 0);
    if (warnings.length) expect(warnings[0]).toContain("longer than the 103");
    shared.closeAll();
  }
});
