// What scripts branch on: one --json error shape (code, message, hint) for every command that can
// fail, and exit statuses from one table (docs/cli.md): 2 usage, 1 refused, 124 timeout, the
// program's own status for run / wait exit / wait command, grep's 1 for a search with no match.
import { describe, expect, test } from "bun:test";
import { readdirSync, readlinkSync } from "node:fs";
import { useServer, waitFor } from "./harness";

const s = useServer();

const jsonError = async (args: string[], exit = 1) => {
  const r = await s.run(["--json", ...args]);
  expect({ args, code: r.code }).toEqual({ args, code: exit });
  const e = JSON.parse(r.stdout);
  expect(e).toMatchObject({ type: "error" });
  expect(typeof e.code).toBe("string");
  expect(typeof e.message).toBe("string");
  expect(typeof e.hint).toBe("object");
  expect(r.stderr).toContain("ws: ");
  return e;
};

describe("--json errors have code, message and hint", () => {
  test("commands the server refuses, old messages and v6 ones alike", async () => {
    expect(await jsonError(["split", "999"])).toMatchObject({ v: 6, code: "pane_not_found" });
    expect(await jsonError(["tab", "new", "--workspace", "nope"])).toMatchObject({ code: "workspace_not_found" });
    expect(await jsonError(["pane", "close", "999"])).toMatchObject({ code: "pane_not_found" });
    expect(await jsonError(["workspace", "close", "Gmaes"])).toMatchObject({ code: "workspace_not_found", hint: { available: ["main"] } });
    expect(await jsonError(["done", "nothere"])).toMatchObject({ code: "not_a_workstream" });
    expect(await jsonError(["pane", "read", "999"])).toMatchObject({ code: "pane_not_found" });
    expect(await jsonError(["run", "999", "--", "true"])).toMatchObject({ code: "pane_not_found" });
  });

  test("mistakes in the command line and a missing server have the CLI's own codes", async () => {
    expect(await jsonError(["pane", "frobnicate"], 2)).toMatchObject({ code: "usage" });
    expect(await jsonError(["split", "--sideways"], 2)).toMatchObject({ code: "usage" });
    const other = await s.run(["--json", "-L", "nobody-here", "pane", "list"]);
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout)).toMatchObject({ code: "no_server", hint: {} });
  });

  test("without --json an error is one line on stderr and nothing on stdout", async () => {
    const r = await s.run(["workspace", "close", "Gmaes"]);
    expect(r).toMatchObject({ code: 1, stdout: "" });
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("exit statuses", () => {
  const kept = async (script: string) => Number((await s.ok(["tab", "new", "--keep", "--cwd", "/tmp", "--", "sh", "-c", script])).trim());

  test("ws wait exit exits with the program's status; --status-ok with 0", async () => {
    const pane = await kept("read x; exit 3");
    const waiting = s.run(["wait", "exit", String(pane)]);
    await s.ok(["pane", "send", String(pane), "--enter"]);
    expect(await waiting).toMatchObject({ code: 3, stdout: "3\n" });
    expect(await s.run(["wait", "exit", String(pane), "--status-ok"])).toMatchObject({ code: 0, stdout: "3\n" });
    expect(await s.run(["wait", "exit", String(pane)])).toMatchObject({ code: 3 });
  });

  test("ws wait command exits with the command's status", async () => {
    const pane = Number((await s.ok(["tab", "new", "--cwd", "/tmp", "--", "bash"])).trim());
    // ws run answers once the shell is at its prompt with its marks working.
    await s.run(["run", String(pane), "--", "true"]);
    // The command waits for a line, so it ends only once the wait is in place.
    await s.ok(["pane", "send", String(pane), "read -r _; (exit 7)", "--enter"]);
    // The daemon's sockets by inode: the wait's connection is one that wasn't there before (a count
    // could stay level while an earlier CLI's connection closes as the wait's opens).
    const sockets = () => {
      const dir = `/proc/${s.daemonPid()}/fd`;
      const links = readdirSync(dir).map((f) => { try { return readlinkSync(`${dir}/${f}`); } catch { return ""; } });
      return new Set(links.filter((l) => l.startsWith("socket:")));
    };
    const before = sockets();
    const waiting = s.run(["wait", "command", String(pane)]);
    await waitFor("the wait's connection", () => [...sockets()].some((l) => !before.has(l)));
    // A round trip on another connection: by its answer the server has read the wait's line.
    await s.v6({ type: "pane_info", pane });
    await s.ok(["pane", "send", String(pane), "", "--enter"]);
    expect(await waiting).toMatchObject({ code: 7, stdout: "7\n" });
  });

  test("ws search exits 1 when nothing matches, 0 when something does", async () => {
    const pane = Number((await s.ok(["tab", "new", "--cwd", "/tmp", "--", "sh", "-c", "echo needle-in-hay; exec cat"])).trim());
    await s.waitScreen(pane, "needle-in-hay");
    expect(await s.run(["search", "needle-in-hay"])).toMatchObject({ code: 0 });
    expect(await s.run(["search", "no-such-text-anywhere"])).toMatchObject({ code: 1, stdout: "" });
  });

  test("pane send to a pane whose program exited says so on stderr and exits 1", async () => {
    const pane = await kept("exit 0");
    await waitFor("the program to exit", async () => (await s.v6({ type: "pane_info", pane })).exit_code !== undefined);
    const r = await s.run(["pane", "send", String(pane), "hello"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("has exited");
    expect(await jsonError(["pane", "send", String(pane), "hello"])).toMatchObject({ code: "pane_exited" });
  });
});
