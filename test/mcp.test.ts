// ws mcp (docs/mcp.md), driven by the MCP SDK's own client over stdio as an agent would: it
// initializes, lists the tools, splits a shell beside its pane, runs a command there, reads the
// pane, types into it and waits on its output; from a pane at `self`, a tool on another workspace's pane is refused, and no person verb
// is ever a tool (called by name, it is refused as no tool).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MESSAGES } from "../src/messages";
import { TOOL_SPECS } from "../src/mcp/tools";
import { sharedPaneSocketPath } from "../src/paths";
import { TestServer, wsArgv } from "./harness";

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

describe("ws mcp", () => {
  let s: TestServer;
  let client: Client;
  let agentPane: number;
  let otherPane: number;

  beforeAll(async () => {
    s = await new TestServer().start();
    await s.v6({ type: "workspace_new", name: "agent" });
    await s.v6({ type: "workspace_new", name: "other" });
    agentPane = (await s.call({ type: "tab_new", workspace: "agent", name: "claude", cwd: s.root, command: ["sleep", "600"] })).pane as number;
    otherPane = (await s.call({ type: "tab_new", workspace: "other", name: "secret", cwd: s.root, command: ["sh", "-c", "echo TOP-SECRET; sleep 600"] })).pane as number;
    await s.waitScreen(otherPane, "TOP-SECRET");
    // The agent's pane holds `self`, as an agent's pane does.
    expect((await s.v6({ type: "pane_grant", pane: agentPane, level: "self" })).type).toBe("pane_grants");
    // Started as the agent would start it: inside its pane (its key), so on the panes' socket.
    client = await mcpClient(sharedPaneSocketPath(s.sock));
  }, 60_000);

  /** `ws mcp` as the agent in agentPane starts it, its socket `socket`, driven by the SDK's client. */
  async function mcpClient(socket: string, extra: string[] = []): Promise<Client> {
    const [command, ...args] = wsArgv();
    const transport = new StdioClientTransport({
      command: command!,
      args: [...args, "mcp", ...extra],
      env: { ...s.env, WS_SOCKET: socket, WS_PANE_ID: String(agentPane), ...(socket === s.sock ? {} : { WS_PANE_KEY: await s.paneKey(agentPane) }) },
      cwd: s.root,
      stderr: "pipe",
    });
    const c = new Client({ name: "ws-test", version: "1" });
    await c.connect(transport);
    return c;
  }

  afterAll(async () => {
    await client?.close();
    await s.stop();
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as ToolResult;

  test("initialize names the server; the tools are the registry's messages, typed from it, and no person verb", async () => {
    expect(client.getServerVersion()?.name).toBe("ws");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(TOOL_SPECS.map((t) => t.message));
    for (const n of ["pane_list", "agent_list", "pane_read", "wait_for", "pane_send", "pane_send_keys", "run", "split", "tab_new", "checkpoint_list", "checkpoint_diff", "ask"]) expect(names).toContain(n);
    const person = MESSAGES.filter((m) => m.grant === "person").map((m) => m.type);
    expect(person.length).toBeGreaterThan(3);
    expect(names.filter((n) => person.includes(n))).toEqual([]);
    const read = tools.find((t) => t.name === "pane_read")!;
    expect(read.inputSchema.required).toEqual(["pane"]);
    expect((read.inputSchema.properties as Record<string, { enum?: string[] }>).source!.enum).toContain("recent");
  });

  test("it acts with its pane's grants: a split beside its own pane, a command run there with its status, the pane read", async () => {
    const grants = await call("pane_grants", {});
    expect(grants.structuredContent).toMatchObject({ pane: agentPane, level: "self" });
    const split = await call("split", {}); // the user's shell, which ws starts with its shell integration
    expect(split.isError).toBeUndefined();
    const shell = split.structuredContent!.pane as number;
    expect(typeof shell).toBe("number");
    const ran = await call("run", { pane: shell, command: "echo made-by-$((6*7)); false", timeout: 30_000 });
    expect(ran.content[0]!.text).not.toMatch(/^\w+: /);
    expect(ran.isError).toBeUndefined();
    expect(ran.structuredContent).toMatchObject({ pane: shell, exit_code: 1 });
    expect(String(ran.structuredContent!.output)).toContain("made-by-42");
    const read = await call("pane_read", { pane: shell, source: "recent" });
    expect(String(read.structuredContent!.text)).toContain("made-by-42");
    expect(JSON.parse(read.content[0]!.text).text).toContain("made-by-42");
    // Typed text, then a wait on its output: the wait returns once the pane prints it.
    const waiting = call("wait_for", { condition: "output", pane: shell, pattern: "^waited-9$", timeout: 30_000 });
    expect((await call("pane_send", { pane: shell, text: "echo waited-$((3*3))", enter: true })).isError).toBeUndefined();
    const waited = await waiting;
    expect(waited.isError).toBeUndefined();
    expect(String(await s.screen(shell))).toMatch(/^waited-9$/m);
  });

  test("from a `self` pane, a tool on another workspace's pane is refused, and nothing of it comes back", async () => {
    const read = await call("pane_read", { pane: otherPane });
    expect(read.isError).toBe(true);
    expect(read.content[0]!.text).toStartWith("forbidden:");
    expect(read.content[0]!.text).not.toContain("TOP-SECRET");
    // Fields of its own (an older protocol version, another message type) change nothing.
    const sneaky = await call("pane_read", { pane: otherPane, v: 1, type: "approval_answer", id: 7 });
    expect(sneaky.content[0]!.text).toStartWith("forbidden:");
    const typed = await call("pane_send", { pane: otherPane, text: "echo pwned", enter: true });
    expect(typed.isError).toBe(true);
    // A workspace-wide verb is beyond `self` too.
    expect((await call("tab_new", { workspace: "agent", command: ["true"] })).content[0]!.text).toStartWith("forbidden:");
    expect(await s.screen(otherPane)).not.toContain("pwned");
  });

  test("a person verb called by name is no tool, and nothing of it is done", async () => {
    const person = MESSAGES.filter((m) => m.grant === "person").map((m) => m.type);
    expect(person).toContain("approval_answer");
    for (const name of person) {
      const r = await call(name, { approval: 1, behavior: "allow", pane: otherPane, text: "echo pwned", enter: true });
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toBe(`no tool ${name}`);
    }
    expect(await s.screen(otherPane)).not.toContain("pwned");
  });

  test("on the main socket (where a pane's socket path would be too long) it restricts itself to its pane's grants all the same", async () => {
    const main = await mcpClient(s.sock);
    try {
      const r = (await main.callTool({ name: "pane_read", arguments: { pane: otherPane } })) as ToolResult;
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toStartWith("forbidden:");
    } finally {
      await main.close();
    }
  });

  test("--grants lowers it below the pane's own: at report, even its own split is refused", async () => {
    const low = await mcpClient(sharedPaneSocketPath(s.sock), ["--grants", "report"]);
    try {
      const r = (await low.callTool({ name: "split", arguments: { command: ["true"] } })) as ToolResult;
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toStartWith("forbidden:");
    } finally {
      await low.close();
    }
  });
});
