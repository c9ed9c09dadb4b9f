// The tools `ws mcp` offers an agent: each is one registry message, named as the message, described
// and typed from its registry entry (its summary and fields), so the tools can't drift from the
// protocol. Person verbs are never tools (a test holds every entry here to it), and the server
// refuses them on a restricted connection anyway.
import type { MessageEntry } from "../messages/types";
import type { FieldSpec } from "../protocol/schema";

/** Where a field's value comes from when the agent leaves it out. */
type Default = "own pane" | "cwd" | "empty";

interface ToolSpec {
  message: string;
  /** What the agent is told before the message's own summary. */
  lead: string;
  defaults?: Record<string, Default>;
}

// Typing tools (pane_send, pane_send_keys, run) name their pane: the agent's own pane is the agent.
export const TOOL_SPECS: ToolSpec[] = [
  { message: "pane_list", lead: "List panes (ids for the other tools)." },
  { message: "workspace_list", lead: "List workspaces and their tabs." },
  { message: "agent_list", lead: "List the agents ws knows and their status." },
  { message: "pane_grants", lead: "What this connection's pane may do (its grants).", defaults: { pane: "own pane" } },
  { message: "pane_read", lead: "Read a pane's text; source screen, recent (with scrollback) or all." },
  { message: "wait_for", lead: "Wait until a pane prints a pattern (condition output), its program exits (exit), goes quiet, or an agent reaches a status." },
  { message: "pane_send", lead: "Type text into a pane (enter: press Enter after it)." },
  { message: "pane_send_keys", lead: "Press keys in a pane (names such as Enter, C-c, Up; or text)." },
  { message: "run", lead: "Run a command line at a shell pane's prompt and get its exit status and output." },
  { message: "split", lead: "Open a new pane beside a pane (default: beside yours), running a command (default: a shell).", defaults: { pane: "own pane", cwd: "cwd", command: "empty" } },
  { message: "tab_new", lead: "Open a new tab (needs the workspace grant)." },
  { message: "checkpoint_list", lead: "List a workstream's checkpoints (needs the control grant)." },
  { message: "checkpoint_diff", lead: "The diff between two checkpoints, or from one to now (needs the control grant)." },
  { message: "ask", lead: "Ask the person a question and wait for the answer (shown in ws's inbox)." },
];

export interface Tool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required: string[] };
  entry: MessageEntry;
  defaults: Record<string, Default>;
}

function fieldSchema(f: FieldSpec): Record<string, unknown> {
  const range = { ...(f.min !== undefined ? { minimum: f.min } : {}), ...(f.max !== undefined ? { maximum: f.max } : {}) };
  const base: Record<string, unknown> =
    f.type === "integer" || f.type === "number"
      ? { type: f.type, ...range }
      : f.type === "boolean"
        ? { type: "boolean" }
        : f.type === "string"
          ? { type: "string", ...(f.accepted ? { enum: [...f.accepted] } : {}) }
          : f.type === "string[]"
            ? { type: "array", items: { type: "string", ...(f.accepted ? { enum: [...f.accepted] } : {}) } }
            : f.type === "integer[]"
              ? { type: "array", items: { type: "integer", ...range } }
              : f.type === "pairs"
                ? { type: "array", items: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 2 } }
                : f.type === "object"
                  ? { type: "object" }
                  : {};
  return { ...base, description: f.description, ...(f.default !== undefined ? { default: f.default } : {}) };
}

export function buildTools(registry: ReadonlyMap<string, MessageEntry>): Tool[] {
  return TOOL_SPECS.map((spec) => {
    const entry = registry.get(spec.message);
    if (!entry) throw new Error(`no message ${spec.message} in the registry`);
    const defaults = spec.defaults ?? {};
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const [name, f] of Object.entries(entry.fields)) {
      properties[name] = fieldSchema(f);
      if (f.required && !(name in defaults)) required.push(name);
    }
    return { name: spec.message, description: `${spec.lead} ${entry.summary}`, inputSchema: { type: "object", properties, required }, entry, defaults };
  });
}

/** The arguments with the tool's defaults filled in for what the agent left out. */
export function withDefaults(tool: Tool, args: Record<string, unknown>, env: Record<string, string | undefined>, cwd: string): Record<string, unknown> {
  const out = { ...args };
  for (const [name, d] of Object.entries(tool.defaults)) {
    if (out[name] !== undefined) continue;
    if (d === "cwd") out[name] = cwd;
    else if (d === "empty") out[name] = [];
    else if (env.WS_PANE_ID && /^\d+$/.test(env.WS_PANE_ID)) out[name] = Number(env.WS_PANE_ID);
  }
  return out;
}
