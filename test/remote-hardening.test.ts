// `ws -H` against far sides that misbehave, a hung ssh peer among them: a stand-in for ssh (WS_SSH_COMMAND,
// as a user would set it) plays the far side's `ws proxy`, each host name a different misbehaving
// remote. Whatever it sends, the client prints nothing raw, holds a bounded amount, names the host
// and gives up in time; a bad host in a merged dashboard is one row and the others still show.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, wsArgv } from "./harness";

const PREAMBLE = '{"ws_proxy":1,"min":1,"max":6,"build":"standin"}';
const GOOD_DASHBOARD = '{"v":6,"type":"dashboard","agents":[{"pane":4,"workspace":"main","label":"claude","status":"working","secs":12}],"ports":[{"port":3000,"pane":4,"workspace":"main","tab":"dev","command":"node"}],"workstreams":[]}';

/** The stand-in ssh: skips the options up to `--`; the host picks the behaviour. */
const STAND_IN = `#!/bin/sh
while [ "$1" != "--" ]; do shift; done
host=$2
pre='${PREAMBLE}'
case $host in
  escapes)   # ws proxy --exec running doctor: output and messages full of escape sequences
    echo "$pre"; read -r argv
    printf 'ok    doctor \\033]52;c;SGVsbG8=\\007 then \\033[2J cleared\\n'
    printf 'warn  \\033]0;evil title\\007 \\302\\233 31m\\n' >&2 ;;
  escapes-reply)   # a bridged request answered with an error whose message carries escapes
    echo "$pre"; read -r line
    printf '%s\\n' '{"v":6,"type":"error","code":"internal","message":"boom \\u001b]52;c;SGVsbG8=\\u0007 \\u001b[2J"}' ;;
  sshfail)   # ssh itself failing with escapes in its message
    printf 'kex \\033]52;c;SGVsbG8=\\007 \\033[2J refused\\n' >&2; exit 255 ;;
  badlists)  echo "$pre"; read -r line; printf '%s\n' '{"v":6,"type":"panes","panes":"abc","workspaces":5}' ;;
  good)      echo "$pre"; read -r line; printf '%s\\n' '${GOOD_DASHBOARD}' ;;
  badagents) echo "$pre"; read -r line; printf '%s\\n' '{"v":6,"type":"dashboard","agents":"abc","ports":[]}' ;;
  badstatus) echo "$pre"; read -r line; printf '%s\\n' '{"v":6,"type":"dashboard","agents":[{"pane":1,"workspace":"w","label":"l","status":5,"secs":1}],"ports":[]}' ;;
  flood)     echo "$pre"; exec sh -c "yes xxxxxxxxxxxxxxx | tr -d '\\\\n'" ;;   # a valid preamble, then endless bytes, no newline
  floodpre)  exec sh -c "yes xxxxxxxxxxxxxxx | tr -d '\\\\n'" ;;                   # no preamble line at all
  floodexec) echo "$pre"; read -r argv; head -c 200000000 /dev/zero | tr '\\0' x ;; # --exec: 200 MB of output, no newline
  hung)      echo "$pre"; cat >/dev/null ;;   # takes the request, never answers (sh keeps stdout open)
  *) echo "stand-in ssh: unknown host $host" >&2; exit 255 ;;
esac
`;

let s: TestServer;
beforeAll(() => {
  s = new TestServer();
  const ssh = join(s.root, "stand-in-ssh");
  writeFileSync(ssh, STAND_IN, { mode: 0o755 });
  s.env.WS_SSH_COMMAND = ssh;
});
afterAll(() => s.stop());

const ESC = "\x1b";
const C1 = /[\x80-\x9f]/;

describe("everything a remote sends is printed terminal-safe", () => {
  test("ws -H x doctor (run there whole): the remote's ESC]52 and ESC[2J come out visible, not raw", async () => {
    const r = await s.run(["-H", "escapes", "doctor"]);
    for (const out of [r.stdout, r.stderr]) {
      expect(out).not.toContain(ESC);
      expect(out).not.toMatch(C1);
      expect(out).not.toContain("\x07");
    }
    expect(r.stdout).toContain("doctor ^[]52;c;SGVsbG8=^G then ^[[2J cleared");
    expect(r.stderr).toContain("^[]0;evil title^G <U+009B> 31m");
    // --json: the same text, escaped as JSON escapes it, so a parser still gets the exact value.
    const j = await s.run(["--json", "-H", "escapes", "doctor"]);
    expect(j.stdout).not.toContain(ESC);
    expect(j.stdout).toContain("\\u001b]52;c;SGVsbG8=\\u0007");
  });

  test("a bridged reply's message and ssh's own failure: visible escapes, the host named", async () => {
    const r = await s.run(["-H", "escapes-reply", "tab", "new"]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain(ESC);
    expect(r.stderr).toContain("boom ^[]52;c;SGVsbG8=^G ^[[2J");
    const f = await s.run(["-H", "sshfail", "workspace", "list"]);
    expect(f.code).toBe(1);
    expect(f.stderr).not.toContain(ESC);
    expect(f.stderr).toContain("ssh to sshfail failed: kex ^[]52;c;SGVsbG8=^G ^[[2J refused");
  });
});

describe("ws dashboard across hosts with a host whose reply has the wrong shape", () => {
  test('"agents":"abc" and an agent with "status":5: one "unreachable: bad reply" row each; the good host\'s rows still show', async () => {
    const r = await s.run(["dashboard", "-H", "good", "-H", "badagents", "-H", "badstatus"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/good\s+working\s+12s\s+pane 4\s+main \/ claude/);
    expect(r.stdout).toMatch(/good\s+3000\s+pane 4\s+main \/ dev\s+node/);
    expect(r.stdout).toMatch(/badagents\s+unreachable: bad reply \(agents is not a list\)/);
    expect(r.stdout).toMatch(/badstatus\s+unreachable: bad reply \(agents\[0\]\.status is not a string\)/);
    expect(r.stdout.split("\n").filter((l) => l.includes("badstatus")).length).toBe(1);
    const j = JSON.parse((await s.run(["--json", "dashboard", "-H", "good", "-H", "badagents", "-H", "badstatus"])).stdout);
    expect(j.hosts).toEqual([
      { host: "good", ok: true },
      { host: "badagents", ok: false, error: "bad reply (agents is not a list)" },
      { host: "badstatus", ok: false, error: "bad reply (agents[0].status is not a string)" },
    ]);
    expect(j.agents).toEqual([{ host: "good", pane: 4, workspace: "main", label: "claude", status: "working", secs: 12 }]);
    // Only bad hosts: exit 1, each still its row.
    const bad = await s.run(["dashboard", "-H", "badagents", "-H", "badstatus"]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("unreachable: bad reply");
  });

  test("one host with a bad reply (its own dashboard view, pane list, tab list): a clear error naming it, not a crash", async () => {
    const r = await s.run(["-H", "badagents", "dashboard"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("bad reply from the ws server on badagents");
    for (const cmd of [["pane", "list"], ["tab", "list"]]) {
      const l = await s.run(["-H", "badlists", ...cmd]);
      expect(l.code).toBe(1);
      expect(l.stderr).toMatch(/bad reply from the ws server on badlists: `(panes|workspaces)` is not a list of objects/);
    }
  });
});

/** Run ws under GNU time: exit status, stderr and the peak resident memory in MB. */
async function peak(args: string[], opts: { stdout?: "ignore" } = {}) {
  const p = Bun.spawn(["/usr/bin/time", "-f", "maxrss_kb=%M", ...wsArgv(), ...args], { env: s.env, cwd: s.root, stdin: "ignore", stdout: opts.stdout ?? "pipe", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  const kb = Number(/maxrss_kb=(\d+)/.exec(err)?.[1]);
  return { code, stderr: err, mb: kb / 1024 };
}

describe.skipIf(!require("node:fs").existsSync("/usr/bin/time"))("every reader from the ssh peer is capped", () => {
  test("a valid preamble, then endless bytes with no newline: refused at 64 MiB, memory bounded", async () => {
    const r = await peak(["-H", "flood", "workspace", "list"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("a reply from the ws server on flood is longer than 64 MiB");
    // The audit saw 712 MB; the cap holds 64 MiB of bytes beside the runtime.
    expect(r.mb).toBeLessThan(300);
  }, 60_000);

  test("no preamble line at all: refused after 64 KiB", async () => {
    const r = await peak(["-H", "floodpre", "workspace", "list"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("floodpre's ws did not answer as a ws proxy (no preamble line in its first 64 KiB)");
    expect(r.mb).toBeLessThan(200);
  }, 60_000);

  test("the merged dashboard: a flooding host is one row (its 8 MiB cap), the good host still shows", async () => {
    const r = await s.run(["dashboard", "-H", "good", "-H", "flood"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/flood\s+unreachable: the answer is longer than 8 MiB/);
    expect(r.stdout).toMatch(/good\s+working/);
  }, 60_000);

  test("a command run there whole (--exec) streams 200 MB without a newline through, holding none of it", async () => {
    const r = await peak(["-H", "floodexec", "doctor"], { stdout: "ignore" });
    expect(r.code).toBe(0);
    expect(r.mb).toBeLessThan(200);
  }, 120_000);
});

describe("a hung ssh peer, and errors that name the host (items 12, 13)", () => {
  test("the merged dashboard: a hung host is one row at --timeout, the good host still shows", async () => {
    const started = Date.now();
    const r = await s.run(["dashboard", "-H", "good", "-H", "hung", "--timeout", "1500"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/hung\s+unreachable: no answer within 1.5 s/);
    expect(r.stdout).toMatch(/good\s+working/);
    expect(Date.now() - started).toBeLessThan(1500 + 8000);
  }, 30_000);

  test("a remote that takes the request and never answers: the client gives up at --timeout, naming the host, not a local socket", async () => {
    const started = Date.now();
    const r = await s.run(["-H", "hung", "--timeout", "1000", "workspace", "list"]);
    const took = Date.now() - started;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the ws server on hung did not answer within 1 s");
    expect(r.stderr).not.toContain(s.root);
    expect(r.stderr).not.toContain(".sock");
    expect(took).toBeLessThan(1000 + 8000);
  }, 30_000);
});

test("a hung ssh holds up only its own command: the ws server never runs ssh, and another client's p99 stays low", async () => {
  const local = await new TestServer().start();
  const hung = Array.from({ length: 4 }, () =>
    Bun.spawn([...wsArgv(), "-H", "hung", "--timeout", "20000", "workspace", "list"], { env: { ...local.env, WS_SSH_COMMAND: s.env.WS_SSH_COMMAND! }, cwd: local.root, stdout: "ignore", stderr: "ignore" }),
  );
  try {
    const times: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      expect((await local.v6({ type: "workspace_list" })).type).toBe("workspaces");
      times.push(performance.now() - t);
    }
    // The hung clients were waiting the whole time.
    expect(hung.every((p) => p.exitCode === null)).toBe(true);
    times.sort((a, b) => a - b);
    const p99 = times[98]!;
    console.log(`workspace_list with 4 hung ws -H clients waiting: p50 ${times[49]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
    expect(p99).toBeLessThan(500);
  } finally {
    for (const p of hung) p.kill();
    await local.stop();
  }
}, 60_000);
