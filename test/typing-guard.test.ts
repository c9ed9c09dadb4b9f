// What the approvals guard's rule would break if it also covered typing into another agent's pane
// (docs/security.md "Typing into another pane: measured"). Not a feature: a measurement.
// The paths that type into an agent's pane by design run for real, from inside ws panes, through a
// recording proxy in front of the server's socket. For each connection the proxy asks the kernel
// who connected (SO_PEERCRED, features/approvals/peer.ts's peerPid) and classifies that process
// with the guard's own rule (paneOfProcess over the server's panes); for each message that types
// (pane_send, pane_send_keys, agent_send) it records the pane it came from and the pane it typed
// into. A rule "refuse typing from inside a pane into another pane" refuses every row whose `from`
// is a pane other than its target.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { paneOfProcess, peerPid } from "../src/features/approvals/peer";
import { ghStandIn } from "./git-rig";
import { TestServer, wsArgv } from "./harness";

const TYPING = new Set(["pane_send", "pane_send_keys", "agent_send"]);

interface Typed {
  type: string;
  /** The pane the sending process runs in, by the guard's rule; undefined: outside ws. */
  from: number | undefined;
  /** The pane it names (pane_send, pane_send_keys) or the agent it names (agent_send's `to`/`pane`). */
  target: unknown;
  /** Time the classification took (SO_PEERCRED plus the /proc walk), in ms. */
  classifyMs: number;
}

describe.skipIf(process.platform !== "linux")("typing into another pane, under the approvals guard's rule", () => {
  let s: TestServer;
  let proxyPath: string;
  let proxy: ReturnType<typeof Bun.listen>;
  const typed: Typed[] = [];
  let wrapper: string;
  let gh: { bin: string; dir: string };

  /** The panes' programs (pid → pane), read before the paths run: no pane starts or ends during them. */
  let pids = new Map<number, number>();
  const panePids = async () => new Map((await s.call({ type: "pane_list" })).panes.filter((p) => !p.exited).map((p) => [p.pid, p.pane]));

  beforeAll(async () => {
    s = new TestServer();
    await s.start();
    wrapper = join(s.root, "ws-wrapper");
    writeFileSync(wrapper, `#!/bin/sh\nexec ${wsArgv().map((a) => `'${a}'`).join(" ")} "$@"\n`, { mode: 0o755 });
    gh = ghStandIn(s.root);
    writeFileSync(
      join(gh.dir, "threads.json"),
      JSON.stringify({ data: { repository: { pullRequest: { reviewThreads: { nodes: [{ isResolved: false, path: "a.txt", line: 1, comments: { nodes: [{ author: { login: "rev" }, body: "rename it" }] } }] } } } } }),
    );
    // The recording proxy: byte for byte both ways, reading the client's lines on the way.
    proxyPath = join(s.root, "proxy.sock");
    rmSync(proxyPath, { force: true });
    proxy = Bun.listen<{ up?: Promise<Bun.Socket<undefined>>; from?: Promise<{ pane: number | undefined; ms: number }>; buf: string }>({
      unix: proxyPath,
      socket: {
        open(client) {
          const fd = (client as unknown as { fd?: number }).fd;
          const pid = peerPid(fd);
          client.data = { buf: "" };
          // At once, while the peer is surely alive (it has just connected), as the server's guard
          // does while the answer's sender waits for its reply.
          const t = performance.now();
          client.data.from = (async () => {
            const at = pid === undefined ? "unknown" : await paneOfProcess(pid, pids);
            return { pane: typeof at === "number" ? at : undefined, ms: performance.now() - t };
          })();
          client.data.up = Bun.connect({
            unix: s.sock,
            socket: {
              data: (_u, b) => void client.write(b),
              close: () => void client.end(),
            },
          });
        },
        async data(client, b) {
          const up = await client.data.up;
          up!.write(b);
          client.data.buf += Buffer.from(b).toString();
          let nl: number;
          while ((nl = client.data.buf.indexOf("\n")) >= 0) {
            const line = client.data.buf.slice(0, nl);
            client.data.buf = client.data.buf.slice(nl + 1);
            let m: { type?: string; to?: number; pane?: number } | null;
            try {
              m = JSON.parse(line);
            } catch {
              continue;
            }
            if (!m?.type || !TYPING.has(m.type)) continue;
            const from = await client.data.from!;
            typed.push({ type: m.type, from: from.pane, target: m.to ?? m.pane, classifyMs: from.ms });
          }
        },
        async close(client) {
          (await client.data.up)?.end();
        },
      },
    });
  }, 60_000);
  afterAll(async () => {
    proxy?.stop(true);
    await s?.stop();
  });

  /** Type `command` into `pane`'s shell with ws's socket replaced by the proxy; wait for its marker. */
  async function runIn(pane: number, command: string, marker: string) {
    await s.request({ v: 6, type: "pane_send", pane, text: `export WS_SOCKET='${proxyPath}'; ${command}; echo "${marker}=$?"`, enter: true });
    const screen = (await s.waitScreen(pane, new RegExp(`${marker}=\\d+`), 30000)).replaceAll("\n", "");
    expect(screen).toContain(`${marker}=0`);
  }

  test("the tmux shim (agent teams), ws agent send, ws pane send and ws pr comments all type from inside a pane into another: the rule refuses each", async () => {
    const lead = 1;
    const mate = (await s.request({ v: 6, type: "tab_new", name: "mate", cwd: s.root })).pane as number;
    await s.request({ v: 6, type: "report", pane: mate, agent: "claude", event: "SessionStart" });
    // The review tab: its agent and a shell beside it, where ws pr comments runs.
    const reviewAgent = (await s.request({ v: 6, type: "tab_new", name: "review", cwd: s.root })).pane as number;
    const reviewShell = (await s.request({ v: 6, type: "split", pane: reviewAgent, cwd: s.root, command: [], focus: false })).pane as number;
    await s.request({ v: 6, type: "report", pane: reviewAgent, agent: "claude", event: "SessionStart" });
    pids = await panePids();
    // agent_send's `pane` names a pane in the agent's tab (ws pr comments gives its own): its agent is typed into.
    const agentOfTab = new Map([[reviewShell, reviewAgent]]);

    // Agent teams: the lead (Claude Code's Bash tool, in the lead's pane) drives its teammate with tmux send-keys.
    await runIn(lead, `${wrapper} tmux-shim -- sh -c 'tmux send-keys -t %${mate} "echo via-shim" Enter'`, "shim");
    await s.waitScreen(mate, "via-shim", 30000);
    // One agent asks another.
    await runIn(lead, `${wrapper} agent send --to ${mate} 'echo via-agent-send'`, "agentsend");
    await s.waitScreen(mate, "via-agent-send", 30000);
    // A script in a pane types into another.
    await runIn(lead, `${wrapper} pane send ${mate} 'echo via-pane-send' --enter`, "panesend");
    await s.waitScreen(mate, "via-pane-send", 30000);
    // ws pr comments, run in the review tab's shell, sends the comments to the tab's agent.
    await runIn(reviewShell, `PATH='${gh.bin}':"$PATH" ${wrapper} pr comments 9`, "prcomments");
    await s.waitScreen(reviewAgent, "rename it", 30000);
    // A person at a terminal outside ws (this test process), through the same proxy.
    // (Spawned, not spawnSync: the proxy runs in this process.)
    const outside = Bun.spawn([...wsArgv(), "pane", "send", String(mate), "echo from-outside", "--enter"], { env: { ...s.env, WS_SOCKET: proxyPath, WS_PANE_ID: "" }, stderr: "pipe" });
    expect(await outside.exited, await new Response(outside.stderr).text()).toBe(0);

    const rows = typed.map((t) => {
      const named = Number(String(t.target).replace("%", ""));
      const target = t.type === "agent_send" ? (agentOfTab.get(named) ?? named) : named;
      return { ...t, target, refused: t.from !== undefined && target !== t.from };
    });
    console.log("typing measured through the guard's rule:");
    for (const r of rows) console.log(`  ${r.type.padEnd(15)} from ${r.from === undefined ? "outside ws" : `pane ${r.from}`} into ${r.target}: ${r.refused ? "REFUSED" : "allowed"} (classified in ${r.classifyMs.toFixed(2)} ms)`);
    const byFrom = (pane: number | undefined) => rows.filter((r) => r.from === pane);
    // The shim types with pane_send_keys, agent send and pr comments with agent_send, pane send with pane_send.
    expect(byFrom(lead).map((r) => r.type).sort()).toEqual(["agent_send", "pane_send", "pane_send_keys"]);
    expect(byFrom(lead).every((r) => r.refused)).toBe(true);
    expect(byFrom(reviewShell)).toEqual([expect.objectContaining({ type: "agent_send", refused: true })]);
    // Only the person outside ws keeps typing.
    expect(byFrom(undefined)).toEqual([expect.objectContaining({ type: "pane_send", refused: false })]);
    await s.waitScreen(mate, "from-outside", 20000);
  }, 120_000);
});
