// Agent commands: ws agent send, ws hooks install|uninstall, ws dashboard, ws report (help only:
// src/main.ts runs `ws report` on a fast path before this CLI loads).
import { defineCommand } from "citty";
import { CliError, paneArg, print, send, show } from "./common";

const agentSend = defineCommand({
  meta: { name: "send", description: "Type text into the agent of a pane's tab, then Enter: ws agent send TEXT [--pane N]" },
  args: {
    text: { type: "positional", required: true, description: "What to type" },
    pane: { type: "string", description: "A pane in the tab (default: $WS_PANE_ID)" },
  },
  async run({ args }) {
    const reply = await send("agent_send", { pane: paneArg(args.pane), text: String(args.text) });
    show(reply, `sent to pane ${reply.pane}`);
  },
});

export const agent = defineCommand({
  meta: { name: "agent", description: "Talk to the coding agents running in panes" },
  subCommands: { send: agentSend },
});

async function hooks(action: "install" | "uninstall", args: { target?: string; "dry-run"?: boolean; file?: string }) {
  const { runHooks, TARGETS, HooksError } = await import("../features/agents/hooks-install");
  const targets = args.target ? [args.target] : action === "uninstall" ? TARGETS : [];
  if (!targets.length) throw new CliError(`which agent? ws hooks ${action} ${TARGETS.join("|")}`);
  for (const t of targets) {
    if (!(TARGETS as string[]).includes(t)) throw new CliError(`unknown agent "${t}" (have: ${TARGETS.join(", ")})`);
    if (args.file && targets.length > 1) throw new CliError("--file needs one agent");
    try {
      print(runHooks({ action, target: t as "claude" | "codex", dryRun: !!args["dry-run"], file: args.file }));
    } catch (e) {
      if (e instanceof HooksError) throw new CliError(`${t}: ${e.message}`);
      throw e;
    }
  }
}

const hookArgs = {
  target: { type: "positional", required: false, description: "claude or codex" },
  "dry-run": { type: "boolean", description: "Print the change, write nothing" },
  file: { type: "string", description: "The settings file (default: ~/.claude/settings.json or ~/.codex/config.toml)" },
} as const;

export const hooksCmd = defineCommand({
  meta: { name: "hooks", description: "Make an agent CLI report its status to ws" },
  subCommands: {
    install: defineCommand({
      meta: { name: "install", description: "Add ws's hooks to the agent's settings: ws hooks install claude|codex [--dry-run]" },
      args: hookArgs,
      run: ({ args }) => hooks("install", args),
    }),
    uninstall: defineCommand({
      meta: { name: "uninstall", description: "Remove exactly what install added: ws hooks uninstall [claude|codex] [--dry-run]" },
      args: hookArgs,
      run: ({ args }) => hooks("uninstall", args),
    }),
  },
});

interface DashboardOut {
  agents: { pane: number; workspace: string; label: string; status: string; detail?: string; secs: number }[];
  ports: { port: number; pane: number; workspace: string; tab: string; command: string }[];
}

const ago = (s: number) => (s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`);

export const dashboard = defineCommand({
  meta: { name: "dashboard", description: "Agents (most urgent first), workstreams and ports" },
  async run() {
    const reply = await send("dashboard");
    const d = reply as unknown as DashboardOut;
    const lines = [
      "Agents",
      ...(d.agents.length ? d.agents : []).map(
        (a) => `  ${a.status.padEnd(8)} ${ago(a.secs).padStart(4)}  pane ${a.pane}  ${a.workspace} / ${a.label}${a.detail ? `  (${a.detail})` : ""}`,
      ),
      ...(d.agents.length ? [] : ["  none reporting (ws hooks install claude)"]),
      "Ports",
      ...d.ports.map((p) => `  ${String(p.port).padStart(5)}  pane ${p.pane}  ${p.workspace} / ${p.tab}  ${p.command}`),
      ...(d.ports.length ? [] : ["  none"]),
    ];
    show(reply, lines.join("\n"));
  },
});

export const report = defineCommand({
  meta: { name: "report", description: "Forward an agent hook event (JSON on stdin) to this pane's ws: ws report EVENT [--agent NAME]" },
  args: {
    event: { type: "positional", required: false, description: "The hook's event name" },
    agent: { type: "string", description: "claude, codex, …" },
  },
  async run({ rawArgs }) {
    const { main } = await import("../features/agents/report");
    await main(rawArgs);
  },
});
