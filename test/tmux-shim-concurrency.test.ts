// The tmux shim's buffers and options under concurrency: 20 `tmux` calls at once from one pane, as a
// tool that fires them in parallel does. Each call is its own process; when each read, changed and
// wrote the shim's files, 7–11 of 20 `set-buffer -b nI vI` and 3 of 20 `set-option -g @optN` were
// lost. The daemon keeps them now (one message per change), so none is. Options that choose what
// later shim calls start in any pane need control grants.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Conn, TestServer, type RunResult } from "./harness";

const N = 20;
let s: TestServer;
let pane: number;
let shimEnv: Record<string, string>;

beforeAll(async () => {
  s = await new TestServer().start();
  pane = (await s.v6({ type: "pane_list" })).panes[0]!.pane;
  const r = await s.run(["tmux-shim", "--", "sh", "-c", 'printf "%s\\n" "$PATH" "$TMUX"'], { env: { WS_PANE_ID: String(pane), WS_SOCKET: s.sock } });
  expect(r.code).toBe(0);
  const [path, tmuxVar] = r.stdout.split("\n");
  shimEnv = { ...s.env, PATH: path!, TMUX: tmuxVar!, TMUX_PANE: `%${pane}`, WS_PANE_ID: String(pane), WS_SOCKET: s.sock };
});
afterAll(() => s.stop());

/** The `tmux` on the shim's PATH, from the pane, as a tool runs it. */
async function tmux(args: string[]): Promise<RunResult> {
  const p = Bun.spawn([Bun.which("tmux", { PATH: shimEnv.PATH })!, ...args], { env: shimEnv, cwd: s.root, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/** N calls started together; every one must succeed. */
async function atOnce(args: (i: number) => string[]): Promise<void> {
  const results = await Promise.all(Array.from({ length: N }, (_, i) => tmux(args(i))));
  for (const r of results) expect(r).toMatchObject({ code: 0, stderr: "" });
}

const ok = async (args: string[]) => {
  const r = await tmux(args);
  expect(r).toMatchObject({ code: 0, stderr: "" });
  return r.stdout;
};
const range = (f: (i: number) => string) => Array.from({ length: N }, (_, i) => f(i));
/** Several commands in one call, split by `;` as tmux takes them (a process each is slow here). */
const each = (f: (i: number) => string[]) => range((i) => [...f(i), ";"].join("\0")).join("\0").split("\0").slice(0, -1);

test(`${N} set-buffer -b nI vI at once: every buffer is there with its text`, async () => {
  await atOnce((i) => ["set-buffer", "-b", `n${i}`, `v${i}`]);
  const listed = (await ok(["list-buffers", "-F", "#{buffer_name}"])).trim().split("\n");
  const names = listed.map((l) => l.split(":")[0]!).filter((n) => n.startsWith("n"));
  expect(names.sort()).toEqual(range((i) => `n${i}`).sort());
  expect(await ok(each((i) => ["show-buffer", "-b", `n${i}`]))).toBe(range((i) => `v${i}\n`).join(""));
}, 120_000);

test(`${N} set-buffer with no name at once: ${N} automatic buffers, none replacing another`, async () => {
  await atOnce((i) => ["set-buffer", `auto ${i}`]);
  const lines = (await ok(["list-buffers"])).trim().split("\n").filter((l) => l.startsWith("buffer"));
  expect(new Set(lines.map((l) => l.split(":")[0])).size).toBe(N);
  expect(lines.map((l) => /"(auto \d+)"/.exec(l)?.[1]).sort()).toEqual(range((i) => `auto ${i}`).sort());
}, 120_000);

test(`${N} set-buffer -a to one buffer at once: every piece is in it, once`, async () => {
  await ok(["set-buffer", "-b", "log", ""]);
  await atOnce((i) => ["set-buffer", "-a", "-b", "log", `<${i}>`]);
  const text = await ok(["show-buffer", "-b", "log"]);
  const pieces = [...(text.match(/<\d+>/g) ?? [])];
  expect(pieces.sort()).toEqual(range((i) => `<${i}>`).sort());
}, 120_000);

test(`${N} set-option -g @optI at once: every option is kept`, async () => {
  await atOnce((i) => ["set-option", "-g", `@opt${i}`, `value ${i}`]);
  expect(await ok(each((i) => ["show-options", "-gv", `@opt${i}`]))).toBe(range((i) => `value ${i}\n`).join(""));
}, 120_000);

test(`${N} set-option -ga to one option at once: every piece is in it, once`, async () => {
  await atOnce((i) => ["set-option", "-ga", "@list", `[${i}]`]);
  const list = [...((await ok(["show-options", "-gv", "@list"])).match(/\[\d+\]/g) ?? [])];
  expect(list.sort()).toEqual(range((i) => `[${i}]`).sort());
}, 120_000);

test("default-shell, default-command and remain-on-exit need control; a self pane sets its @options and buffers", async () => {
  const agent = (await s.call({ type: "tab_new", name: "agent", cwd: s.root, command: ["sleep", "600"] })).pane as number;
  expect(await s.v6({ type: "pane_grant", pane: agent, level: "self" })).toMatchObject({ type: "pane_grants" });
  const ask = async (msg: Record<string, unknown>) => {
    const c = await Conn.open(await s.paneSocket(agent));
    try {
      c.send({ v: 6, id: 1, ...msg });
      return await c.nextJson(20_000);
    } finally {
      c.close();
    }
  };
  for (const name of ["default-shell", "default-command", "remain-on-exit"]) {
    const r = await ask({ type: "shim_option_set", name, value: "/tmp/agent-shell" });
    expect(r).toMatchObject({ type: "error", code: "forbidden" });
  }
  expect(await ask({ type: "shim_option_set", name: "@agent", value: "mine" })).toMatchObject({ type: "shim_option", value: "mine" });
  expect(await ask({ type: "shim_buffer_set", name: "from-agent", text: "t" })).toMatchObject({ type: "shim_buffer", name: "from-agent" });
  // Nothing the refusals asked for was kept; the person's own socket may set them.
  const options = (await s.v6({ type: "shim_option_list" })).options as Record<string, string>;
  expect(options["default-shell"]).toBeUndefined();
  expect(await s.v6({ type: "shim_option_set", name: "remain-on-exit", value: "off" })).toMatchObject({ type: "shim_option", value: "off" });
}, 60_000);
