// ws open (open, open_file) into a real Neovim: ws starts it with --listen on a private socket in
// its socket directory and drives it over msgpack-RPC. The test asks Neovim itself, over that
// socket, which file it shows and where its cursor is.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { decode, encode, type Packable } from "../src/features/nvim/msgpack";
import { parseLocation } from "../src/features/nvim/location";
import { nvimListenArgv, nvimSocketOf } from "../src/features/nvim/listen";

let s: TestServer;
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1} ${"x".repeat(20)}`).join("\n") + "\n";
const nvimSockets = () => readdirSync(s.socketDir).filter((f) => /^nvim-.*\.sock$/.test(f)).map((f) => join(s.socketDir, f));

/** Ask the Neovim on `sock` for an expression's value, as a person's script would. */
async function nvimExpr(sock: string, expr: string): Promise<string> {
  const p = Bun.spawn(["nvim", "--server", sock, "--remote-expr", expr], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  // Neovim 0.7 prints the value on stderr.
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`nvim --remote-expr ${expr} exited ${code}`);
  return (out + err).trim();
}
/** Where that Neovim is: its buffer's full name, line and column. */
const where = async (sock: string) => ({ file: await nvimExpr(sock, 'expand("%:p")'), line: Number(await nvimExpr(sock, 'line(".")')), col: Number(await nvimExpr(sock, 'col(".")')) });
const waitWhere = (sock: string, want: { file: string; line: number; col: number }) =>
  waitFor(`Neovim to show ${JSON.stringify(want)}`, async () => {
    try {
      const w = await where(sock);
      return w.file === want.file && w.line === want.line && w.col === want.col ? w : undefined;
    } catch {
      return undefined;
    }
  });
/** The pane on screen: the current workspace's active tab's focused pane. */
const focusedPane = async () => {
  const cur = (await s.v6({ type: "session_snapshot" })).workspaces.find((w) => w.current);
  return cur!.tabs.find((t) => t.active)!.focused;
};

beforeAll(async () => {
  s = await new TestServer().start();
});
afterAll(() => s.stop());

test("location, listen argv and msgpack: the pure parts", () => {
  expect(parseLocation("/a/b.ts:12:5")).toEqual({ path: "/a/b.ts", line: 12, col: 5 });
  expect(parseLocation("/a/b.ts:12")).toEqual({ path: "/a/b.ts", line: 12 });
  expect(parseLocation("/a/b:c.ts")).toEqual({ path: "/a/b:c.ts" });
  expect(parseLocation("rel/x")).toEqual({ path: "rel/x" });
  const argv = nvimListenArgv(["nvim", "-O", "a"], "/run/ws");
  expect(argv).toEqual(["nvim", "--listen", expect.stringMatching(/^\/run\/ws\/nvim-[0-9a-f]{16}\.sock$/), "-O", "a"]);
  expect(nvimSocketOf(argv, "/run/ws/")).toBe(argv[2]);
  expect(nvimListenArgv(["vim"], "/run/ws")).toEqual(["vim"]);
  expect(nvimSocketOf(["nvim", "--listen", "/elsewhere/x.sock"], "/run/ws")).toBeUndefined();
  for (const v of [null, true, 0, 127, 128, 70000, -1, -33, -70000, "", "é|'\" x", "y".repeat(300), [1, ["a", null]]] as const)
    expect(decode(encode(v as Packable)).value).toEqual(v);
});

test("ws open starts a Neovim beside the caller at line and column, and a second open reuses it", async () => {
  const dir = join(s.root, "dir with space");
  mkdirSync(dir);
  const first = join(dir, `it's a |file.txt`);
  const second = join(dir, `"quoted" % #name.txt`);
  writeFileSync(first, lines(60));
  writeFileSync(second, lines(30));
  const shell = (await s.v6({ type: "tab_new", cwd: s.root, name: "edit", focus: true })).pane;
  const env = { WS_PANE_ID: String(shell) };

  // Relative to the caller's directory, spaces, a quote and a bar in the name.
  const out = await s.ok(["open", `dir with space/it's a |file.txt:12:3`], { env, cwd: s.root });
  const nvimPane = Number(/^pane (\d+)\n$/.exec(out)![1]);
  expect(nvimPane).not.toBe(shell);
  const tab = (await s.v6({ type: "workspace_list" })).workspaces.flatMap((w) => w.tabs).find((t) => t.name === "edit");
  expect(tab!.panes).toEqual([shell, nvimPane]);
  expect(await focusedPane()).toBe(nvimPane);
  const [sock] = await waitFor("the Neovim's socket", () => (nvimSockets().length ? nvimSockets() : undefined));
  expect(nvimSockets()).toHaveLength(1);
  await waitWhere(sock!, { file: first, line: 12, col: 3 });

  // Again, after the shell took the focus back: the same Neovim, a new place, the focus on it.
  await s.v6({ type: "pane_focus", pane: shell });
  expect(await s.ok(["open", `${first}:40`], { env })).toBe(`pane ${nvimPane}\n`);
  await waitWhere(sock!, { file: first, line: 40, col: 1 });
  expect(await focusedPane()).toBe(nvimPane);
  expect(await s.v6({ type: "open_file", pane: shell, location: `${second}:7:4` })).toMatchObject({ type: "pane", pane: nvimPane });
  await waitWhere(sock!, { file: second, line: 7, col: 4 });

  // The v1 message: answered ok, then acted on.
  expect(await s.request({ v: 1, type: "open", pane: shell, location: `${first}:5` })).toEqual({ type: "ok" });
  await waitWhere(sock!, { file: first, line: 5, col: 1 });
  // A file that does not exist yet: Neovim opens a new buffer for it.
  expect(await s.v6({ type: "open_file", pane: shell, location: join(dir, "new file.txt") })).toMatchObject({ type: "pane", pane: nvimPane });
  await waitWhere(sock!, { file: join(dir, "new file.txt"), line: 1, col: 1 });
  expect(nvimSockets()).toHaveLength(1);
  expect((await s.v6({ type: "workspace_list" })).workspaces.flatMap((w) => w.tabs).find((t) => t.name === "edit")!.panes).toEqual([shell, nvimPane]);
}, 30_000);

test("inside a workstream, open goes to the workstream's Neovim in another tab", async () => {
  const file = join(s.root, "ws-file.txt");
  writeFileSync(file, lines(20));
  const sock = join(s.socketDir, "nvim-workstreamtest0.sock");
  const env = { WS_WORKSTREAM: "feat-1" };
  const editor = (await s.v6({ type: "tab_new", cwd: s.root, name: "feat editor", command: ["nvim", "--listen", sock], env })).pane;
  await waitFor("the workstream's Neovim to listen", async () => (await nvimExpr(sock, "1").catch(() => "")) === "1");
  const agentTab = (await s.v6({ type: "tab_new", cwd: s.root, name: "feat agent", env, focus: true })).pane;
  expect(await s.v6({ type: "open_file", pane: agentTab, location: `${file}:9:2` })).toMatchObject({ type: "pane", pane: editor });
  await waitWhere(sock, { file, line: 9, col: 2 });
  expect(await focusedPane()).toBe(editor);
});

test("open's errors: a pane that has gone, a relative path; nothing is started", async () => {
  const before = nvimSockets().length;
  expect(await s.v6({ type: "open_file", pane: 9999, location: "/tmp/x" })).toMatchObject({ type: "error", code: "pane_not_found" });
  const shell = (await s.v6({ type: "tab_new", cwd: s.root })).pane;
  expect(await s.v6({ type: "open_file", pane: shell, location: "rel/x.txt:3" })).toMatchObject({ type: "error", code: "invalid_params", hint: { param: "location" } });
  const r = await s.run(["open", "x.txt"], { env: { WS_PANE_ID: "9999" } });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("9999");
  expect(nvimSockets().length).toBe(before);
});
