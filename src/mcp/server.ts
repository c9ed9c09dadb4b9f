// `ws mcp`: a Model Context Protocol server on stdin/stdout, so an agent can use ws as tools
// (tools.ts), each call on a connection restricted to its pane's grants (connection.ts). Loaded only
// by this command: the SDK never weighs on another CLI call.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { REGISTRY } from "../messages";
import { REPLY_TIMEOUT_MS } from "../client/request";
import type { GrantLevel } from "../protocol/grants";
import { buildTools, withDefaults } from "./tools";
import { type CallOptions, Refused, restrictedCall } from "./connection";

export interface McpOptions {
  socket: string;
  ceiling: GrantLevel;
  version: string;
}

const text = (t: string, isError = false) => ({ content: [{ type: "text" as const, text: t }], ...(isError ? { isError: true } : {}) });

export async function serveMcp(o: McpOptions): Promise<void> {
  const tools = buildTools(REGISTRY);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const paneId = process.env.WS_PANE_ID;
  const call: CallOptions = { socket: o.socket, ceiling: o.ceiling, ...(paneId && /^\d+$/.test(paneId) ? { pane: Number(paneId) } : {}) };
  const server = new Server(
    { name: "ws", version: o.version },
    {
      capabilities: { tools: {} },
      instructions:
        "ws is the terminal multiplexer this agent runs in. Its tools list, read, wait on and type into panes, run commands in shell panes, open panes and tabs, and ask the person; each acts with this pane's grants (pane_grants says which).",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = byName.get(req.params.name);
    if (!tool) return text(`no tool ${req.params.name}`, true);
    // Only the message's own fields: nothing an agent adds (v, id, type) changes how it is sent.
    const given = Object.fromEntries(Object.entries(req.params.arguments ?? {}).filter(([k]) => Object.hasOwn(tool.entry.fields, k)));
    const args = withDefaults(tool, given, process.env, process.cwd());
    try {
      // A wait, a run or a question takes as long as its own timeout says; others answer at once.
      const reply = await restrictedCall(call, { ...args, type: tool.name }, tool.entry.longRunning ? 0 : REPLY_TIMEOUT_MS, extra.signal);
      const { v: _v, id: _id, ...rest } = reply;
      return { ...text(JSON.stringify(rest, null, 1)), structuredContent: rest };
    } catch (e) {
      if (e instanceof Refused) return text(`${e.code}: ${e.message}`, true);
      return text(`ws: ${(e as Error).message}`, true);
    }
  });
  const transport = new StdioServerTransport();
  const closed = Promise.withResolvers<void>();
  transport.onclose = () => closed.resolve();
  await server.connect(transport);
  process.stdin.on("end", () => closed.resolve());
  await closed.promise;
  await server.close();
}
