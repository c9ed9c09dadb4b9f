// ws dashboard -H a -H b (or --all-hosts): every host's agents in one list, most urgent first, each
// row naming its host. Hosts are asked in parallel, each with its own deadline; one that doesn't
// answer gets a row saying so and holds up nobody.
import { readFileSync } from "node:fs";
import { CliError, globals, print, printJson } from "../cli/common";
import { URGENCY } from "../features/agents/status-map";
import { parseReply } from "../protocol/envelope";
import { wsDir } from "../xdg-dirs";
import { openBridge, quietly } from "./ssh";

/** How long one host may take to answer (ssh, the remote ws and its reply), in ms. */
export const HOST_TIMEOUT_MS = Number(process.env.WS_HOST_TIMEOUT_MS) || 8000;

interface Agent {
  pane: number;
  workspace: string;
  label: string;
  status: string;
  detail?: string;
  secs: number;
}
interface Port {
  port: number;
  pane: number;
  workspace: string;
  tab: string;
  command: string;
}
type HostResult = { host: string; ok: true; agents: Agent[]; ports: Port[] } | { host: string; ok: false; error: string };

/** The hosts file: $XDG_CONFIG_HOME/ws/hosts (~/.config/ws/hosts), one ssh host per line, # comments. */
export function hostsFile(env = process.env): string {
  return wsDir("config", env, "hosts");
}

export function readHosts(path = hostsFile()): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CliError(`--all-hosts reads the hosts to ask from ${path}, one per line; there is no such file`);
  }
  const hosts = text
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
  if (!hosts.length) throw new CliError(`${path} lists no hosts`);
  return hosts;
}

/** One request through a bridge, answered within `timeoutMs` or failed (ssh is ended either way). */
async function askHost(host: string, msg: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  const bridge = await openBridge(host, { name: globals.name, timeoutMs });
  const { proc, reader } = bridge;
  try {
    quietly(proc.stdin.write(JSON.stringify(msg) + "\n"));
    quietly(proc.stdin.flush());
    let buf = new TextDecoder().decode(bridge.rest);
    const dec = new TextDecoder();
    while (!buf.includes("\n")) {
      const left = deadline - Date.now();
      const r = await Promise.race([reader.read(), Bun.sleep(Math.max(0, left)).then(() => "timeout" as const)]);
      if (r === "timeout") throw new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`);
      if (r.done) throw new Error("the server closed the connection without answering");
      buf += dec.decode(r.value, { stream: true });
      if (buf.length > 64 * 1024 * 1024) throw new Error("answer too long");
    }
    return parseReply(buf.slice(0, buf.indexOf("\n")));
  } finally {
    try {
      proc.kill();
    } catch {}
  }
}

async function dashboardOf(host: string): Promise<HostResult> {
  try {
    const r = await askHost(host, { v: 5, type: "dashboard" }, HOST_TIMEOUT_MS);
    if (r.type !== "dashboard") return { host, ok: false, error: String(r.message ?? `unexpected reply ${String(r.type)}`) };
    return { host, ok: true, agents: (r.agents as Agent[]) ?? [], ports: (r.ports as Port[]) ?? [] };
  } catch (e) {
    return { host, ok: false, error: (e as Error).message };
  }
}

const ago = (s: number) => (s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`);
const rank = (status: string) => URGENCY[status as keyof typeof URGENCY] ?? 99;

export async function mergedDashboard(): Promise<void> {
  const hosts = [...new Set([...(globals.hosts ?? []), ...(globals.allHosts ? readHosts() : [])])];
  const results = await Promise.all(hosts.map(dashboardOf));
  const agents = results
    .flatMap((r) => (r.ok ? r.agents.map((a) => ({ host: r.host, ...a })) : []))
    .sort((a, b) => rank(a.status) - rank(b.status) || b.secs - a.secs || a.host.localeCompare(b.host) || a.pane - b.pane);
  const ports = results.flatMap((r) => (r.ok ? r.ports.map((p) => ({ host: r.host, ...p })) : []));
  const down = results.filter((r) => !r.ok) as Extract<HostResult, { ok: false }>[];
  if (globals.json)
    return printJson({ type: "dashboard", hosts: results.map((r) => (r.ok ? { host: r.host, ok: true } : { host: r.host, ok: false, error: r.error })), agents, ports });
  const w = Math.max(...hosts.map((h) => h.length));
  print(
    [
      "Agents",
      ...down.map((r) => `  ${r.host.padEnd(w)}  unreachable: ${r.error.split("\n")[0]}`),
      ...agents.map((a) => `  ${a.host.padEnd(w)}  ${a.status.padEnd(8)} ${ago(a.secs).padStart(4)}  pane ${a.pane}  ${a.workspace} / ${a.label}${a.detail ? `  (${a.detail})` : ""}`),
      ...(agents.length ? [] : ["  none reporting"]),
      "Ports",
      ...ports.map((p) => `  ${p.host.padEnd(w)}  ${String(p.port).padStart(5)}  pane ${p.pane}  ${p.workspace} / ${p.tab}  ${p.command}`),
      ...(ports.length ? [] : ["  none"]),
    ].join("\n"),
  );
  if (down.length === hosts.length) process.exitCode = 1;
}
