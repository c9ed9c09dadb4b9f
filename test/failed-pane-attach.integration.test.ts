// Failed programs don't vanish, as a person sees it: `ws attach` in a real
// terminal (tmux). A pane whose program fails at start shows `[exited: status N]`, the status line
// says which pane failed (a template's pane too, from another workspace), and a key in it closes it.
import { beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import type { Replies } from "./replies";
import { serverWithTmux, attachCommand, statusLine } from "./tmux-driver";
import { gitEnv, makeRepo } from "./git-rig";

const attachCmd = attachCommand();
const STATUS = /\[main\] tab \d+\/\d+/;
const panes = async (s: TestServer): Promise<number[]> => (await s.list()).flatMap((w) => w.tabs.flatMap((t) => t.panes));

const { s, tmux } = serverWithTmux();
Object.assign(s.env, gitEnv(s.root)); // before the server starts, and tmux shares it
beforeAll(async () => {
  await tmux.open("f", attachCmd);
  await tmux.waitFor("f", STATUS);
}, 30_000);

test("a failed program's pane stays with its status, the status line names it, and a key closes it", async () => {
  const pane = Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", "echo could-not-build; exit 4"])).trim());
  const screen = await tmux.waitFor("f", (t) => t.includes("[exited: status 4]") && statusLine(t).includes(`pane ${pane} (sh) failed: status 4`));
  expect(screen).toContain("could-not-build");
  // Well after it failed it is still there, on screen.
  expect(await panes(s)).toContain(pane);
  // A key in it closes it (the key goes nowhere else: the pane below gets nothing).
  await tmux.keys("f", "q");
  await waitFor("the held pane to close", async () => !(await panes(s)).includes(pane));
  const after = await tmux.waitFor("f", (t) => STATUS.test(statusLine(t)) && !t.includes("failed: status 4"));
  expect(statusLine(after)).not.toContain("failed");
  expect(await s.screen(1)).not.toMatch(/\$ q\s*$/m);
}, 60_000);

test("a template pane that fails says so on the status line, from its own workspace", async () => {
  const { repo } = makeRepo(s.root, s.env);
  const dir = join(s.root, "config", "ws", "templates");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "agent.toml"),
    `[layout]
type = "split"
direction = "right"
ratio = 0.5

[layout.first]
type = "pane"

[layout.second]
type = "pane"
command = ["sh", "-c", "echo 'claude: not logged in'; exit 1"]
`,
  );
  const r = await s.v6({ id: 1, type: "new_workstream", template: "agent", name: "feat-x", repo });
  expect(r).toMatchObject({ type: "pane" });
  const held = await waitFor("the template's failing pane to be held", async () => {
    const list = (JSON.parse(await s.ok(["--json", "pane", "list"])) as Replies["pane_list"]).panes;
    return list.find((p) => p.exited && p.exit_code === 1 && p.start_command[0] === "sh");
  });
  const screen = await tmux.waitFor("f", (t) => statusLine(t).includes(`pane ${held.pane} (sh) failed: status 1`));
  expect(statusLine(screen)).toContain("failed: status 1");
  expect(await s.screen(held.pane)).toContain("[exited: status 1]");
  await s.ok(["pane", "close", String(held.pane)]);
  await tmux.waitFor("f", (t) => !statusLine(t).includes("failed"));
}, 60_000);
