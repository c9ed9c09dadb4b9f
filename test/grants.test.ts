// Grants and the panes' socket (docs/security.md "Grants"): panes share one socket, named by their
// WS_SOCKET, and every connection there is the pane its process runs in (its process tree, else its
// key) with that pane's grants; one from no pane is refused. The matrix sends every registry
// message, at every level, as a pane (through a relay carrying the pane's key: TestServer.paneSocket)
// and checks it is refused or let through as its registry entry says; the scope tests check which panes and workspaces a level reaches; an
// agent running in a shell pane lowers it to `self` until it exits; the person raises.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MESSAGES } from "../src/messages";
import type { MessageEntry } from "../src/messages/types";
import { paneSocketDir, sharedPaneSocketPath } from "../src/paths";
import { GRANT_LEVELS, allows, type GrantLevel } from "../src/protocol/grants";
import { Conn, TestServer, waitFor, wsArgv } from "./harness";

/** One v6 request on its own connection to `path`; the parsed reply. */
async function ask(path: string, msg: Record<string, unknown>): Promise<Record<string, unknown> & { type: string; code?: string; hint?: { grant?: string } }> {
  const c = await Conn.open(path);
  try {
    c.send({ v: 6, id: 1, ...msg });
    return (await c.nextJson(20000)) as Record<string, unknown> & { type: string };
  } finally {
    c.close();
  }
}

/** A line that passes `entry`'s field checks and names nothing that exists, so what runs does nothing. */
function harmless(entry: MessageEntry): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entry.example ?? {})) if (k !== "v" && k !== "id" && k !== "type") p[k] = v;
  for (const [name, f] of Object.entries(entry.fields)) {
    if (["pane", "with", "beside", "approval", "prompt", "tab", "n"].includes(name) && f.type === "integer") p[name] = 999_999;
    else if (name === "panes") p[name] = [999_999];
    else if (name === "to" && entry.type === "agent_send") p[name] = "999999";
    else if (["workspace", "name", "slug", "from", "template"].includes(name) && f.type === "string") p[name] = "no-such-thing";
    else if (name === "tab" && f.type === "string") p[name] = "no-such-tab";
    else if (p[name] === undefined && f.required)
      p[name] = f.accepted ? f.accepted[0] : f.type === "integer" ? 1 : f.type === "boolean" ? false : f.type === "string[]" ? ["true"] : f.type === "object" ? {} : "x";
  }
  if (entry.type === "wait_for") Object.assign(p, { condition: "exit", timeout: 1 });
  if (entry.type === "ask") p.timeout = 1; // nobody answers: it ends with the timeout error
  if (entry.type === "question_answer") p.question = 999_999;
  if (entry.type === "subscribe") p.pane = 999_999;
  if (entry.type === "session_restore" || entry.type === "session_save") delete p.path;
  if (entry.type === "pane_move") delete p.beside;
  if (entry.type === "layout_apply") p.workspace = "no-such-thing";
  if (entry.type === "cwd" || Object.hasOwn(entry.fields, "cwd")) p.cwd = "/no/such/dir";
  return p;
}

describe("pane sockets and grants", () => {
  let s: TestServer;
  /** A pane per level, in a workspace of its own, each with its shell started. */
  const at = new Map<GrantLevel, number>();

  beforeAll(async () => {
    s = await new TestServer().start();
    await s.v6({ type: "workspace_new", name: "matrix" });
    for (const level of GRANT_LEVELS) {
      const r = await s.call({ type: "tab_new", workspace: "matrix", name: level, cwd: s.root, command: ["sleep", "600"] });
      const pane = r.pane as number;
      expect((await s.v6({ type: "pane_grant", pane, level })).type).toBe("pane_grants");
      at.set(level, pane);
    }
  }, 60_000);
  afterAll(() => s.stop());

  test("the panes share one socket, mode 0600 in a 0700 directory, named by their WS_SOCKET; each connection is its peer's pane", async () => {
    const dir = paneSocketDir(s.sock);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const sock = sharedPaneSocketPath(s.sock);
    expect(statSync(sock).mode & 0o777).toBe(0o600);
    expect(statSync(sock).isSocket()).toBe(true);
    // Asked from inside pane 1's shell, and from a process that left its session and ancestry
    // (setsid, a double fork) but kept its environment: both are pane 1.
    const ws = wsArgv().map((a) => `'${a}'`).join(" ");
    await s.v6({ type: "pane_send", pane: 1, text: `clear; echo "SOCK=$WS_SOCKET"; ${ws} pane grants --json; setsid sh -c "(${ws} pane grants 1 --json > ${s.root}/escaped.json &)"`, enter: true });
    await s.waitScreen(1, `SOCK=${sock}`, 15000);
    await s.waitScreen(1, /"type":"pane_grants","pane":1,"level":"control"/, 15000);
    const escaped = await waitFor("the escaped process's answer", () => (existsSync(`${s.root}/escaped.json`) ? Bun.file(`${s.root}/escaped.json`).text() : undefined));
    expect(escaped).toContain('"type":"pane_grants","pane":1,"level":"control"');
    // Through a relay holding pane 1's key: pane 1.
    expect(await ask(await s.paneSocket(1), { type: "pane_grants" })).toMatchObject({ type: "pane_grants", pane: 1, level: "control", granted: "control" });
    // This test process is in no pane: refused, never the person's.
    expect(await ask(sock, { type: "pane_grants" })).toMatchObject({ type: "error", code: "forbidden" });
    expect(await ask(sock, { type: "workspace_list" })).toMatchObject({ type: "error", code: "forbidden" });
  });

  test("a process in a pane's tree is that pane, even carrying another pane's key", async () => {
    // A self pane's shell sets pane 1's key (control) for a ws it starts: still the self pane.
    const { pane } = await s.call({ type: "tab_new", workspace: "matrix", name: "thief", cwd: s.root });
    const low = pane as number;
    expect((await s.v6({ type: "pane_grant", pane: low, level: "self" })).type).toBe("pane_grants");
    const stolen = await s.paneKey(1);
    const ws = wsArgv().map((a) => `'${a}'`).join(" ");
    // Pane 1 is in another workspace: beyond self's reach, within control's.
    await s.v6({ type: "pane_send", pane: low, text: `WS_PANE_KEY=${stolen} ${ws} pane info 1 --json; echo "RC=$?"`, enter: true });
    await s.waitScreen(low, /^RC=\d+/m, 15000);
    const shown = await s.screen(low);
    expect(shown).toContain('"code":"forbidden"');
    expect(shown).not.toContain('"type":"pane_info"');
    await s.v6({ type: "pane_close", pane: low });
  });

  test("a pane's connections go with the pane, and its key then names no pane", async () => {
    const { pane } = await s.call({ type: "tab_new", workspace: "matrix", name: "short", cwd: s.root, command: ["sleep", "600"] });
    const relay = await s.paneSocket(pane as number);
    const held = await Conn.open(relay);
    held.send({ v: 6, id: 1, type: "pane_grants" });
    expect(await held.nextJson()).toMatchObject({ type: "pane_grants", pane });
    await s.v6({ type: "pane_close", pane: pane as number });
    await waitFor("the closed pane's connection to be closed", () => held.closed || undefined);
    expect(await ask(relay, { type: "pane_grants" })).toMatchObject({ type: "error", code: "forbidden" });
  });

  test("every message at every level, on a pane's socket: refused with forbidden or let through, as its registry entry says", async () => {
    const wrong: string[] = [];
    for (const level of GRANT_LEVELS) {
      const sock = await s.paneSocket(at.get(level)!);
      for (const entry of MESSAGES) {
        const r = await ask(sock, { type: entry.type, ...harmless(entry) });
        const refused = r.type === "error" && r.code === "forbidden";
        if (r.code === "invalid_params") wrong.push(`${level} ${entry.type}: the matrix sent a bad line: ${r.message}`);
        else if (refused !== !allows(level, entry.grant)) wrong.push(`${level} ${entry.type} (needs ${entry.grant}): ${refused ? "refused" : "let through"}: ${JSON.stringify(r).slice(0, 200)}`);
        else if (refused && r.hint?.grant !== entry.grant) wrong.push(`${level} ${entry.type}: hint.grant ${r.hint?.grant}, not ${entry.grant}`);
      }
    }
    expect(wrong).toEqual([]);
    // The panes are all there still (nothing the matrix let through closed one).
    for (const pane of at.values()) expect((await s.call({ type: "pane_info", pane })).pane).toBe(pane);
  }, 120_000);

  test("scope: self reaches its own pane and those it made; workspace its workspace; neither beyond", async () => {
    const self = await s.paneSocket(at.get("self")!);
    // Pane 1 is in another workspace, the control pane in the same one.
    expect((await ask(self, { type: "pane_info", pane: 1 })).code).toBe("forbidden");
    expect((await ask(self, { type: "pane_info", pane: at.get("control")! })).code).toBe("forbidden");
    expect((await ask(self, { type: "pane_info", pane: at.get("self")! })).type).toBe("pane_info");
    // A pane it splits off is its own, with its grants at most.
    const made = await ask(self, { type: "split", pane: at.get("self")!, cwd: s.root, command: ["sleep", "600"] });
    expect(made.type).toBe("pane");
    expect((await ask(self, { type: "pane_info", pane: made.pane })).type).toBe("pane_info");
    expect(await s.v6({ type: "pane_grants", pane: made.pane as number })).toMatchObject({ level: "self", creator: at.get("self") });
    // It can't give a pane more than it has.
    const more = await ask(self, { type: "split", pane: at.get("self")!, cwd: s.root, command: ["sleep", "600"], grants: "control" });
    expect(more).toMatchObject({ type: "error", code: "forbidden" });
    // A workspace pane reaches its workspace's panes, not another's.
    const ws = await s.paneSocket(at.get("workspace")!);
    expect((await ask(ws, { type: "pane_info", pane: at.get("control")! })).type).toBe("pane_info");
    expect((await ask(ws, { type: "pane_info", pane: 1 })).code).toBe("forbidden");
    expect((await ask(ws, { type: "tab_close", workspace: "main", tab: "1" })).code).toBe("forbidden");
    // Listing is for every level from self up.
    expect((await ask(self, { type: "pane_list" })).type).toBe("pane_list");
    expect((await ask(await s.paneSocket(at.get("report")!), { type: "pane_list" })).code).toBe("forbidden");
  });

  test("restrict_connection lowers a connection's grants while it is open, and never raises them", async () => {
    const c = await Conn.open(s.sock);
    try {
      c.send({ v: 6, id: 1, type: "restrict_connection", level: "report" });
      expect(await c.nextJson()).toMatchObject({ type: "restricted", level: "report" });
      c.send({ v: 6, id: 2, type: "pane_list" });
      expect(await c.nextJson()).toMatchObject({ type: "error", code: "forbidden", hint: { grant: "self" } });
      c.send({ v: 6, id: 3, type: "restrict_connection", level: "control" });
      expect(await c.nextJson()).toMatchObject({ type: "restricted", level: "report" });
    } finally {
      c.close();
    }
    // Another connection of the person's is as before.
    expect((await s.v6({ type: "pane_list" })).type).toBe("pane_list");
  });

  test("while an agent runs in a shell pane it answers with self; the shell gets control back when it exits", async () => {
    const { pane } = await s.call({ type: "tab_new", workspace: "matrix", name: "agent", cwd: s.root });
    const sock = await s.paneSocket(pane as number);
    await s.waitScreen(pane as number, /\S/, 20000);
    expect((await ask(sock, { type: "pane_grants" })).level).toBe("control");
    // A program whose name is a known agent's, in the foreground.
    await s.v6({ type: "pane_send", pane: pane as number, text: "clear; (exec -a claude sleep 30)", enter: true });
    await waitFor("the agent to lower the pane", async () => (await ask(sock, { type: "pane_grants" })).level === "self", 15000).catch(async (e) => { console.log(JSON.stringify(await s.v6({ type: "pane_info", pane })), JSON.stringify(await ask(sock, { type: "pane_grants" }))); throw e; });
    expect((await ask(sock, { type: "pane_info", pane: 1 })).code).toBe("forbidden");
    // Ctrl-C: the agent exits and the shell has its grants again.
    await s.v6({ type: "pane_send_keys", pane: pane as number, keys: ["C-c"] });
    await waitFor("the shell's grants back", async () => (await ask(sock, { type: "pane_grants" })).level === "control", 15000);
    expect((await ask(sock, { type: "pane_info", pane: 1 })).type).toBe("pane_info");
    // The person raises: an agent no longer lowers it.
    await s.v6({ type: "pane_grant", pane: pane as number, level: "control" });
    await s.v6({ type: "pane_send", pane: pane as number, text: "clear; (exec -a claude sleep 30)", enter: true });
    await waitFor("the agent's program to be seen", async () => (await ask(sock, { type: "pane_grants" })).agent === true, 15000);
    expect((await ask(sock, { type: "pane_grants" })).level).toBe("control");
    await s.v6({ type: "pane_send_keys", pane: pane as number, keys: ["C-c"] });
  }, 60_000);
});

test("keys.toml grants: the panes the person opens get less than control", async () => {
  const s = new TestServer();
  mkdirSync(join(s.root, "config", "ws"), { recursive: true });
  writeFileSync(join(s.root, "config", "ws", "keys.toml"), 'grants = "workspace"\n');
  await s.start();
  try {
    expect(await s.v6({ type: "pane_grants", pane: 1 })).toMatchObject({ level: "workspace", granted: "workspace" });
    const { pane } = await s.v6({ type: "tab_new", cwd: s.root, command: ["sleep", "600"] });
    expect(await s.v6({ type: "pane_grants", pane })).toMatchObject({ level: "workspace" });
    // The person still raises one.
    expect(await s.v6({ type: "pane_grant", pane, level: "control" })).toMatchObject({ level: "control", by_person: true });
  } finally {
    await s.stop();
  }
}, 60_000);

test("a pane's grants and its socket come back after kill-server --keep", async () => {
  const s = await new TestServer().start();
  try {
    const { pane } = await s.v6({ type: "tab_new", cwd: s.root, command: ["sleep", "600"] });
    await s.v6({ type: "pane_grant", pane, level: "self" });
    expect((await s.run(["kill-server", "--keep"])).code).toBe(0);
    await waitFor("the server to be gone", () => !existsSync(s.sock), 20_000);
    await s.start();
    await waitFor("the panes' socket again", () => existsSync(sharedPaneSocketPath(s.sock)), 20_000);
    expect(await ask(await s.paneSocket(pane as number), { type: "pane_grants" })).toMatchObject({ pane, level: "self" });
    expect((await ask(await s.paneSocket(pane as number), { type: "pane_info", pane: 1 })).code).toBe("forbidden");
  } finally {
    await s.stop();
  }
}, 90_000);
