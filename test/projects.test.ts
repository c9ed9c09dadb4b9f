// Projects: the store the CLI writes ($XDG_DATA_HOME/ws/projects), the server refusing an unknown
// slug (tab_new, open_tab, project_attach), and a rename that moves the project on disk and
// relinks the running server's tabs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";

let s: TestServer;
let data: string;
const tabsOf = async () => (await s.list()).flatMap((w) => w.tabs);

beforeAll(async () => {
  s = new TestServer();
  data = join(s.root, "data");
  s.env.XDG_DATA_HOME = data;
  await s.start();
});
afterAll(() => s.stop());

test("project new, list, show: a private directory with the name, repo and notes", async () => {
  const repo = join(s.root, "repo");
  mkdirSync(repo);
  expect(await s.ok(["project", "new", "a11y", "--name", "Button a11y", "--repo", "repo", "--notes", "keyboard first"])).toBe(
    `a11y: Button a11y\nrepo: ${repo}\n\nkeyboard first\n`,
  );
  const dir = join(data, "ws/projects/a11y");
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(join(dir, "project.json")).mode & 0o777).toBe(0o600);
  expect(JSON.parse(readFileSync(join(dir, "project.json"), "utf8"))).toEqual({ name: "Button a11y", repo });
  await s.ok(["project", "new", "zeta"]);
  expect(await s.ok(["project", "list"])).toBe(`a11y\tButton a11y\t${repo}\nzeta\tzeta\n`);
  expect(JSON.parse(await s.ok(["--json", "project", "show", "a11y"]))).toEqual({ v: 6, type: "project", slug: "a11y", name: "Button a11y", repo, notes: "keyboard first\n" });

  // Refusals: a slug that exists, one that is not a directory name, a repo that isn't there.
  for (const [args, why] of [
    [["project", "new", "a11y"], 'a project "a11y" exists'],
    [["project", "new", "../up"], "invalid slug"],
    [["project", "new", "r", "--repo", "nowhere"], "no such directory"],
    [["project", "show", "nope"], 'no project "nope" (have: a11y, zeta)'],
  ] as const) {
    const r = await s.run([...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(why);
  }
  expect(existsSync(join(data, "ws/projects/r"))).toBe(false);
});

test("tab_new and open_tab with an unknown slug are errors and open nothing; a known one links the tab", async () => {
  await s.ok(["project", "new", "known"]);
  const before = (await tabsOf()).length;
  const refused = await s.v6({ type: "tab_new", cwd: s.root, project: "unknown" });
  expect(refused).toMatchObject({ type: "error", code: "project_not_found", hint: { param: "project" } });
  expect(refused.hint?.available).toContain("known");
  expect(await s.request({ v: 2, type: "tab_new", cwd: s.root, project: "unknown" })).toMatchObject({ type: "error", message: expect.stringContaining('no project "unknown"') });
  const cli = await s.run(["tab", "new", "--project", "unknwn"]);
  expect(cli.code).toBe(1);
  expect(cli.stderr).toContain('no project "unknwn"');
  expect(await s.request({ v: 1, type: "open_tab", cwd: s.root, project: "unknown" })).toEqual({ type: "ok" });
  // open_tab is answered before it acts: a known-slug open_tab after it is the sign it was handled.
  expect(await s.request({ v: 1, type: "open_tab", cwd: s.root, project: "known", name: "after" })).toEqual({ type: "ok" });
  await waitFor("the second open_tab's tab", async () => (await tabsOf()).some((t) => t.name === "after"));
  const tabs = await tabsOf();
  expect(tabs.length).toBe(before + 1);
  expect(tabs.find((t) => t.name === "after")!.project).toBe("known");

  const pane = (await s.v6({ type: "tab_new", cwd: s.root, project: "known", name: "linked" })).pane;
  expect((await tabsOf()).find((t) => t.name === "linked")).toMatchObject({ project: "known", panes: [pane] });

  // The tab an attach opens is open_tab's: refused the same way (a refused attach answers a line
  // starting with "e", as the spec says), and nothing opens.
  const count = (await tabsOf()).length;
  const line = await s.rawLine(JSON.stringify({ v: 1, type: "attach", cols: 80, rows: 24, open: { cwd: s.root, project: "unknown", name: "via-attach" } }) + "\n");
  expect(line).toMatch(/^e.*no project "unknown"/);
  expect((await tabsOf()).length).toBe(count);
});

test("project attach links the caller's tab; an unknown slug is refused and links nothing", async () => {
  await s.ok(["project", "new", "attach-me"]);
  const pane = (await s.v6({ type: "tab_new", cwd: s.root, name: "to-attach" })).pane;
  const env = { WS_PANE_ID: String(pane) };
  const r = await s.run(["project", "attach", "attach-mee"], { env });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('no project "attach-mee"');
  await s.ok(["project", "attach", "attach-me"], { env });
  await waitFor("the tab to be linked", async () => (await tabsOf()).find((t) => t.name === "to-attach")!.project === "attach-me");
  // The server checks too (a client that skips the CLI): the link stays as it was.
  expect(await s.request({ v: 1, type: "project_attach", pane, slug: "ghost" })).toEqual({ type: "ok" });
  // Messages act in the order they came: once a later open_tab's tab is there, the ghost was handled.
  await s.request({ v: 1, type: "open_tab", cwd: s.root, name: "after-ghost" });
  await waitFor("the later open_tab's tab", async () => (await tabsOf()).some((t) => t.name === "after-ghost"));
  expect((await tabsOf()).find((t) => t.name === "to-attach")!.project).toBe("attach-me");
});

test("project rename moves the project on disk and relinks its tabs", async () => {
  await s.ok(["project", "new", "old-slug", "--name", "Kept name"]);
  const a = (await s.v6({ type: "tab_new", cwd: s.root, project: "old-slug", name: "r1" })).pane;
  await s.v6({ type: "tab_new", cwd: s.root, project: "old-slug", name: "r2" });
  await s.v6({ type: "tab_new", cwd: s.root, project: "zeta", name: "other" });
  expect((await s.run(["project", "rename", "old-slug", "--slug", "zeta"])).stderr).toContain('a project "zeta" exists');

  await s.ok(["project", "rename", "old-slug", "--slug", "new-slug"]);
  expect(existsSync(join(data, "ws/projects/old-slug"))).toBe(false);
  expect(await s.ok(["project", "show", "new-slug"])).toBe("new-slug: Kept name\n");
  await waitFor("the tabs to be relinked", async () => {
    const tabs = await tabsOf();
    return tabs.filter((t) => t.project === "new-slug").length === 2 && !tabs.some((t) => t.project === "old-slug");
  });
  const tabs = await tabsOf();
  expect(tabs.find((t) => t.name === "r1")).toMatchObject({ project: "new-slug", panes: [a] });
  expect(tabs.find((t) => t.name === "other")!.project).toBe("zeta");
  // The old slug is gone for the server too.
  expect(await s.v6({ type: "tab_new", cwd: s.root, project: "old-slug" })).toMatchObject({ type: "error", code: "project_not_found" });
});
