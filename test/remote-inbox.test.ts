// One inbox across hosts: two "machines", each a real sshd with its own HOME and runtime
// dir (test/ssh-rig.ts) and its own ws server, each with an agent waiting on its PermissionRequest
// hook. `ws inbox -H a -H b` (and --all-hosts) lists both, each row naming its host; `ws -H HOST
// approve|deny ID` answers on that host, through ssh, and the agent there reads the answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, waitFor, wsArgv } from "./harness";
import { freePort, haveSshd, SshRig } from "./ssh-rig";
import type { Replies } from "./replies";

const AGENT = join(ROOT, "test/fixtures/approval-agent.ts");

describe.skipIf(!haveSshd())("ws inbox across two hosts over real sshd", () => {
  let a: SshRig;
  let b: SshRig;
  let local: TestServer;
  const B = "wsrig2"; // rig b, named in rig a's ssh config (WS_SSH_COMMAND reads that one)
  let claudeDir: string;
  const env = { WS_HOST_TIMEOUT_MS: "30000" }; // a loaded machine: ssh plus a ws from the sources

  beforeAll(async () => {
    [a, b] = await Promise.all([new SshRig().start(), new SshRig().start()]);
    a.installWsShim();
    b.installWsShim();
    // Rig a's ssh (the one the local ws uses) reaches rig b too: its key authorized there, b's host key known.
    appendFileSync(join(b.root, "authorized_keys"), readFileSync(join(a.root, "id_ed25519.pub")));
    const user = readFileSync(a.sshConfig, "utf8").match(/^\s*User (.+)$/m)![1];
    appendFileSync(
      a.sshConfig,
      [`Host ${B}`, "  HostName 127.0.0.1", `  Port ${b.port}`, `  User ${user}`, `  IdentityFile ${join(a.root, "id_ed25519")}`, "  IdentitiesOnly yes", `  UserKnownHostsFile ${join(b.root, "known_hosts")}`, "  GlobalKnownHostsFile /dev/null", "  StrictHostKeyChecking yes", "  LogLevel ERROR", ""].join("\n"),
    );
    local = new TestServer({ env: a.env });
    await local.ok(["-H", a.host, "start"], { env });
    await local.ok(["-H", B, "start"], { env });
    claudeDir = join(local.root, ".claude");
    await local.ok(["hooks", "install", "claude"], { env: { CLAUDE_CONFIG_DIR: claudeDir } });
  }, 120_000);
  afterAll(async () => {
    await local?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  /** A stand-in Claude Code in pane 1 of `rig`'s server (the hook reaches it as it would there). */
  function agentOn(rig: SshRig, tool: string, command: string) {
    const proc = Bun.spawn([process.execPath, AGENT, tool, command], {
      env: { ...local.env, CLAUDE_CONFIG_DIR: claudeDir, WS_SOCKET: join(rig.runtime, "ws", "default.sock"), WS_PANE_ID: "1" },
      cwd: local.root,
      stdout: "pipe",
      stderr: "pipe",
    });
    return (async () => {
      const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      await proc.exited;
      if (proc.exitCode !== 0) throw new Error(`stand-in agent exited ${proc.exitCode}: ${err}`);
      return out.trim();
    })();
  }

  test("-H a -H b: both hosts' requests, each naming its host; approve and deny on each host through ssh", async () => {
    const onA = agentOn(a, "Bash", "make release");
    // b's agent asks once a's request is listed, so a's is the older one.
    await waitFor("a's request", async () => JSON.parse(await local.ok(["--json", "-H", a.host, "inbox"], { env })).approvals.length === 1, 60000);
    const onB = agentOn(b, "Write", "deploy.yaml");
    const merged = await waitFor("both hosts' requests", async () => {
      const r = await local.run(["--json", "inbox", "-H", a.host, "-H", B], { env });
      if (r.code !== 0) return undefined;
      const j: Replies["approval_list"] = JSON.parse(r.stdout);
      return j.approvals.length === 2 ? j : undefined;
    }, 60000);
    expect(merged.hosts).toEqual([{ host: a.host, ok: true }, { host: B, ok: true }]);
    const rowA = merged.approvals.find((r) => r.host === a.host)!;
    const rowB = merged.approvals.find((r) => r.host === B)!;
    expect(rowA).toMatchObject({ pane: 1, agent: "claude", tool: "Bash", summary: "make release" });
    expect(rowB).toMatchObject({ pane: 1, agent: "claude", tool: "Write" });
    // Oldest first: a's agent asked first.
    expect(merged.approvals[0]!.host).toBe(a.host);

    const text = await local.ok(["inbox", "-H", a.host, "-H", B], { env });
    expect(text).toMatch(new RegExp(`^${a.host}\\s+${rowA.id}  claude in pane 1 .*Bash: make release`, "m"));
    expect(text).toMatch(new RegExp(`^${B}\\s+${rowB.id}  claude in pane 1 .*Write: deploy.yaml`, "m"));
    expect(text).toContain("ws -H HOST approve ID");

    // Answered on each host, from this terminal (outside any pane there).
    expect((await local.ok(["-H", B, "deny", String(rowB.id), "--message", "not from a laptop"], { env })).trim()).toBe(`denied ${rowB.id} (pane 1)`);
    expect(await onB).toBe("DECISION deny: not from a laptop");
    expect((await local.ok(["-H", a.host, "approve", String(rowA.id)], { env })).trim()).toBe(`allowed ${rowA.id} (pane 1)`);
    expect(await onA).toBe("DECISION allow");
    const after = JSON.parse(await local.ok(["--json", "-H", a.host, "-H", B, "inbox"], { env }));
    expect(after.approvals).toEqual([]);
  }, 120_000);

  test("a question asked on b (ws ask) is in the merged inbox, naming b; ws -H b answer gives the asker its answer", async () => {
    // A script on b asks on b's socket, as it would there.
    const asker = Bun.spawn([...wsArgv(), "ask", "Release 1.4 now?", "--choice", "yes", "--choice", "no"], {
      env: { ...local.env, WS_SOCKET: join(b.runtime, "ws", "default.sock") },
      cwd: local.root,
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const merged = await waitFor("b's question", async () => {
        const r = await local.run(["--json", "inbox", "-H", a.host, "-H", B], { env });
        const j = r.code === 0 ? (JSON.parse(r.stdout) as { questions?: { host: string; id: number; question: string; choices: string[] }[] }) : undefined;
        return j?.questions?.length === 1 ? j : undefined;
      }, 60000);
      const q = merged.questions![0]!;
      expect(q).toMatchObject({ host: B, question: "Release 1.4 now?", choices: ["yes", "no"] });
      expect(await local.ok(["inbox", "-H", a.host, "-H", B], { env })).toMatch(new RegExp(`^${B}\\s+question ${q.id}  a script asks: Release 1\\.4 now\\?  \\[1: yes, 2: no\\]`, "m"));
      expect((await local.ok(["-H", B, "answer", String(q.id), "yes"], { env })).trim()).toBe(`answered ${q.id}: yes`);
      expect(await new Response(asker.stdout).text()).toBe("yes\n");
      expect(await asker.exited).toBe(0);
    } finally {
      asker.kill();
    }
  }, 120_000);

  test("--all-hosts reads the hosts file; a host that can't be reached gets a row and holds up nobody", async () => {
    a.addHost("deadhost", freePort());
    mkdirSync(join(local.root, "config", "ws"), { recursive: true });
    writeFileSync(join(local.root, "config", "ws", "hosts"), `${a.host}\n${B}\ndeadhost\n`);
    const onB = agentOn(b, "Bash", "rm -rf /srv/cache");
    const merged = await waitFor("b's request", async () => {
      const j: Replies["approval_list"] = JSON.parse((await local.run(["--json", "--all-hosts", "inbox"], { env })).stdout);
      return j.approvals.length === 1 ? j : undefined;
    }, 60000);
    expect(merged.hosts?.map((h) => [h.host, h.ok])).toEqual([[a.host, true], [B, true], ["deadhost", false]]);
    expect(merged.approvals[0]).toMatchObject({ host: B, summary: "rm -rf /srv/cache" });
    const text = await local.run(["--all-hosts", "inbox"], { env });
    expect(text.code).toBe(0); // some hosts answered
    expect(text.stdout).toMatch(/^deadhost\s+unreachable: ssh to deadhost failed/m);
    await local.ok(["-H", B, "approve", String(merged.approvals[0]!.id)], { env });
    expect(await onB).toBe("DECISION allow");
  }, 120_000);
});
