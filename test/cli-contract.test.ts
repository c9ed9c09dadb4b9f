// The script contract (docs/cli.md): every --json success is one object with `v` and `type`, every
// failure the error shape with an exit status from the one table (src/cli/exit-status.ts), walked
// over every command of the CLI's table; and a CI script under `set -euo pipefail` that proves each
// row of that table against a real server.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { buildCommandTable } from "../src/cli-table/table";
import { EXIT_TABLE, exitFor } from "../src/cli/exit-status";
import { ROOT, TestServer, useServer, wsArgv } from "./harness";

const s = useServer();

/** What each command is run with (after `ws --json`); a command not named runs with no arguments. */
const RUNS: Record<string, string[]> = {
  "agent queue cancel": ["999"],
  "agent send": ["--pane", "1", "hello"],
  "api describe": ["pane_info"],
  approve: ["999"],
  call: ["pane_info", '{"v":6,"pane":1}'],
  command: ["no-such-command"],
  deny: ["999"],
  "hooks install": ["claude", "--dry-run", "--file", "settings.json"],
  "hooks uninstall": ["claude", "--dry-run", "--file", "settings.json"],
  "layout export": ["--pane", "1"],
  "layout select": ["tiled", "--pane", "1"],
  notify: ["hello"],
  "pane close": ["999"],
  "pane focus": ["1"],
  "pane grants": ["1"],
  "pane info": ["1"],
  "pane keys": ["1", "Enter"],
  "pane move": ["999"],
  "pane read": ["1"],
  "pane rename": ["1", "walked"],
  "pane resize": ["1", "right", "1"],
  "pane respawn": ["999"],
  "pane send": ["1", "--enter"],
  "pane swap": ["1", "999"],
  "pane zoom": ["1"],
  "project attach": ["no-such-project", "--pane", "1"],
  "project handoff": ["no-such-project"],
  "project new": ["walked"],
  "project rename": ["walked", "--slug", "walked-2"],
  "project show": ["walked-2"],
  review: ["no-such-branch"],
  run: ["1", "--", "true"],
  search: ["no-such-text-anywhere-at-all"],
  split: ["1"],
  "tab close": ["999"],
  "tab rename": ["1", "walked"],
  "templates show": ["default"],
  ask: ["walked?", "--choice", "yes", "--timeout", "1"],
  answer: ["999999", "yes"],
  "wait agent": ["1", "idle", "--timeout", "1"],
  "wait command": ["1", "--timeout", "1"],
  "wait exit": ["1", "--timeout", "1"],
  "wait idle": ["1", "1"],
  "wait output": ["1", "."],
  "wait pane": ["1"],
  "wait workspace": ["main"],
  "workspace close": ["no-such-workspace"],
  "workspace focus": ["main"],
  "workspace new": ["walked"],
  "workspace rename": ["walked", "walked-2"],
};

/** Commands the walk leaves out, and why. */
const LEFT_OUT: Record<string, string> = {
  attach: "it needs a terminal (the walk has none)",
  server: "a daemon in the foreground",
  web: "serves the browser pages until stopped (test/web.test.ts)",
  mcp: "an MCP server on stdio until its input ends (test/mcp.test.ts)",
  proxy: "bridges stdio to the server (ws -H's far end)",
  box: "runs a program in a box",
  "tmux-shim": "runs a program",
  tmux: "prints what tmux would (its words are tmux's)",
  report: "an agent hook: what it prints is the agent's protocol, and it never fails",
  "approval-hook": "an agent hook: what it prints is the agent's answer",
  completion: "prints a script for the shell to read",
  help: "prints help for people, as --help does (ws api describe is the JSON catalogue)",
  "self-update": "reaches the network",
  "remote install": "reaches another machine through ssh",
  events: "a stream until the server stops (the CI script reads it)",
  batch: "prints what its commands print, each line as its command does (test/cli-chain.test.ts)",
  restart: "restarts the server (test/session-restart tests)",
  "kill-server": "run last, below",
  "session restore": "adds the saved session's workspaces to the server (restore tests)",
};

/** One line of --json output, parsed, or the line itself when it is not JSON. */
const parsed = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
};

test("every command's --json output is one object per line with v and type; every failure is the error shape with the table's status", async () => {
  const table = buildCommandTable();
  const paths = table.map((c) => c.path);
  for (const named of [...Object.keys(RUNS), ...Object.keys(LEFT_OUT)]) expect({ named, known: paths.includes(named) }).toEqual({ named, known: true });
  const wrong: string[] = [];
  for (const c of table) {
    if (Object.hasOwn(LEFT_OUT, c.path)) continue;
    const argv = ["--json", ...c.path.split(" "), ...(RUNS[c.path] ?? [])];
    const r = await s.run(argv, { cwd: s.root });
    const lines = r.stdout.split("\n").filter(Boolean).map(parsed);
    const say = (what: string) => wrong.push(`ws ${argv.join(" ")} (exit ${r.code}): ${what}: ${r.stdout.slice(0, 300)}${r.stderr.slice(0, 200)}`);
    if (!lines.length) {
      say("printed nothing on stdout");
      continue;
    }
    for (const o of lines) {
      if (typeof o !== "object" || o === null || Array.isArray(o)) {
        say("a line that is not a JSON object");
        break;
      }
      const { v, type, code, message, hint } = o as Record<string, unknown>;
      if (typeof v !== "number" || typeof type !== "string") say("no v or no type");
      else if (type === "error") {
        if (typeof code !== "string" || typeof message !== "string" || typeof hint !== "object") say("an error without code, message and hint");
        else if (r.code !== exitFor(code)) say(`exit ${r.code} for code ${code}, the table says ${exitFor(code)}`);
        else if (!r.stderr.startsWith("ws: ")) say("an error with no message on stderr");
      } else if (r.code !== 0 && !c.status) say("a result with a failing exit status");
    }
  }
  expect(wrong).toEqual([]);
  const last = await s.run(["--json", "kill-server"]);
  expect(last.code).toBe(0);
  expect(JSON.parse(last.stdout)).toMatchObject({ v: 6, type: "ok" });
}, 300_000);

test("a CI script under set -euo pipefail proves every row of the exit-status table", async () => {
  const other = await new TestServer().start();
  let result: { stdout: string; stderr: string; code: number };
  try {
    const script = Bun.spawn(["bash", join(ROOT, "test/ci-contract.sh")], { env: { ...other.env, WS_CMD: wsArgv().join(" ") }, cwd: other.root, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(script.stdout).text(), new Response(script.stderr).text(), script.exited]);
    result = { stdout, stderr, code };
  } finally {
    await other.stop();
  }
  const { stdout, stderr, code } = result;
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  const checked = stdout.split("\n").filter((l) => l.startsWith("checked ")).map((l) => l.slice("checked ".length));
  expect(checked).toEqual(EXIT_TABLE.map((row) => row.status));
}, 120_000);
