import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseReportArgs } from "../src/cli/report.ts";
import { waitFor } from "./harness.ts";

const script = join(import.meta.dir, "../src/main.ts"); // through main.ts: the fast path hooks use
let dir: string;
let sock: string;
let silentSock: string;
const lines: string[] = [];
const servers: { stop(force?: boolean): void }[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ws-report-"));
  chmodSync(dir, 0o700);
  sock = join(dir, "ws.sock");
  silentSock = join(dir, "silent.sock");
  // A stand-in for the daemon's socket: reads one line, answers ok like the real server.
  servers.push(
    Bun.listen({
      unix: sock,
      socket: {
        data(s, chunk) {
          lines.push(new TextDecoder().decode(chunk));
          s.write("ok\n");
          s.end();
        },
      },
    }),
    // Accepts and never answers: report must still give up and exit 0.
    Bun.listen({ unix: silentSock, socket: { data() {} } }),
  );
});
afterAll(() => {
  for (const s of servers) s.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

async function report(args: string[], env: Record<string, string | undefined>, stdin: string | "never-ends" = "") {
  const p = Bun.spawn(["bun", script, "report", ...args], {
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env },
    // "never-ends": a pipe nobody writes to or closes, as a person's terminal would be.
    stdin: stdin === "never-ends" ? "pipe" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = [await new Response(p.stdout).text(), await new Response(p.stderr).text(), await p.exited];
  return { out, err, code };
}

describe("ws report", () => {
  test("argument parsing", () => {
    expect(parseReportArgs(["Stop", "--agent", "claude"])).toEqual({ event: "Stop", agent: "claude", chain: [] });
    expect(parseReportArgs(["--agent=codex", "--", "notify-send", "hi", '{"type":"agent-turn-complete"}'])).toEqual({
      agent: "codex",
      argPayload: '{"type":"agent-turn-complete"}',
      chain: ["notify-send", "hi"],
    });
  });

  test("forwards Claude Code hook JSON from stdin", async () => {
    lines.length = 0;
    const hook = { session_id: "abc", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } };
    const r = await report(["PreToolUse", "--agent", "claude"], { WS_SOCKET: sock, WS_PANE_ID: "3" }, JSON.stringify(hook));
    expect(r).toEqual({ out: "", err: "", code: 0 });
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { v: 1, type: "report", pane: 3, agent: "claude", event: "PreToolUse", payload: hook },
    ]);
    expect(lines[0]!.endsWith("\n")).toBe(true);
  });

  test("Codex notify: payload as the last argument, event from its type, user's notify still runs", async () => {
    lines.length = 0;
    const seen = join(dir, "chained.txt");
    const payload = { type: "agent-turn-complete", "thread-id": "t", "last-assistant-message": "done" };
    const r = await report(
      ["--agent", "codex", "--", "bash", "-c", 'printf %s "$1" > "$0"', seen, JSON.stringify(payload)],
      { WS_SOCKET: sock, WS_PANE_ID: "5" },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(lines[0]!)).toEqual({ v: 1, type: "report", pane: 5, agent: "codex", event: "agent-turn-complete", payload });
    expect(await waitFor("the chained notify to run", () => JSON.parse(readFileSync(seen, "utf8")))).toEqual(payload);
  });

  test("outside ws, or with ws gone or silent, exits 0 and says nothing", async () => {
    lines.length = 0;
    const envs = [{}, { WS_SOCKET: sock }, { WS_SOCKET: sock, WS_PANE_ID: "x" }, { WS_SOCKET: join(dir, "missing.sock"), WS_PANE_ID: "1" }, { WS_SOCKET: silentSock, WS_PANE_ID: "1" }];
    // All at once: the silent one waits out its deadline, the others need not wait for it.
    for (const r of await Promise.all(envs.map((env) => report(["Stop"], env, "{}")))) expect(r).toEqual({ out: "", err: "", code: 0 });
    expect(lines).toEqual([]);
  });

  test("non-JSON input is passed through as a string; empty as null", async () => {
    lines.length = 0;
    await report(["Stop"], { WS_SOCKET: sock, WS_PANE_ID: "1" }, "plain text");
    await report(["Stop"], { WS_SOCKET: sock, WS_PANE_ID: "1" }, "");
    expect(lines.map((l) => JSON.parse(l).payload)).toEqual(["plain text", null]);
  });

  test("a payload near the 1 MiB bound on stdin arrives whole", async () => {
    // Read in many chunks (client-libc.ts readToEnd): a stand-in that collects the whole line.
    const got: string[] = [];
    const bigSock = join(dir, "big.sock");
    let buf = "";
    const big = Bun.listen({
      unix: bigSock,
      socket: {
        data(s, chunk) {
          buf += new TextDecoder().decode(chunk);
          if (!buf.endsWith("\n")) return;
          got.push(buf);
          s.write("ok\n");
          s.end();
        },
      },
    });
    try {
      // The input bound is a request line's (1 MiB): a payload just inside it, read and written in many chunks.
      const payload = { tool_response: "y".repeat(1000 * 1024) + "end" };
      const r = await report(["PostToolUse"], { WS_SOCKET: bigSock, WS_PANE_ID: "2", WS_DEBUG: "1" }, JSON.stringify(payload));
      expect(r).toEqual({ out: "", err: "", code: 0 });
      expect(JSON.parse(got[0]!).payload).toEqual(payload);
    } finally {
      big.stop(true);
    }
  });

  test("stdin that never ends: gives up after its deadline and reports without a payload", async () => {
    lines.length = 0;
    const r = await report(["Stop"], { WS_SOCKET: sock, WS_PANE_ID: "4" }, "never-ends");
    expect(r).toEqual({ out: "", err: "", code: 0 });
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ v: 1, type: "report", pane: 4, event: "Stop", payload: null }]);
  });

  test("WS_DEBUG: an answered report says nothing; a silent ws is named", async () => {
    expect(await report(["Stop"], { WS_SOCKET: sock, WS_PANE_ID: "1", WS_DEBUG: "1" }, "{}")).toEqual({ out: "", err: "", code: 0 });
    const silent = await report(["Stop"], { WS_SOCKET: silentSock, WS_PANE_ID: "1", WS_DEBUG: "1" }, "{}");
    expect(silent.err).toContain("no answer from ws");
    expect(silent.code).toBe(0);
  });
});
