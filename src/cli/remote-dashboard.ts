// ws dashboard -H a -H b (or --all-hosts): every host's agents in one list, most urgent first, each
// row naming its host. Hosts are asked in parallel, each with its own deadline; one that doesn't
// answer gets a row saying so and holds up nobody.
import { type FileReadError, readTextFile } from "../safe-file";
import { CliError, fileRefused, globals, print, printResult } from "./common";
import { URGENCY } from "../features/agents/status-map";
import type { DashboardPort } from "../features/agents/service";
import { parseReply } from "../protocol/envelope";
import { wsDir } from "../xdg-dirs";
import { openBridge, quietly } from "../remote/ssh";
import { LineReader } from "../line-reader";
import { formatMs } from "../client/stream";

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
type HostResult = { host: string; ok: true; agents: Agent[]; ports: DashboardPort[] } | { host: string; ok: false; error: string };

/** The hosts file: $XDG_CONFIG_HOME/ws/hosts (~/.config/ws/hosts), one ssh host per line, # comments. */
export function hostsFile(env = process.env): string {
  return wsDir("config", env, "hosts");
}

/** The most read of the hosts file: far more hosts than anyone asks at once. */
export const HOSTS_FILE_MAX = 64 * 1024;

export function readHosts(path = hostsFile()): string[] {
  let text: string;
  try {
    // A regular file only, never a FIFO or a device in its place (src/safe-file.ts).
    text = readTextFile(path, HOSTS_FILE_MAX);
  } catch (e) {
    if ((e as FileReadError).code === "ENOENT") throw new CliError(`--all-hosts reads the hosts to ask from ${path}, one per line; there is no such file`);
    throw fileRefused(e, "--all-hosts");
  }
  const hosts = text
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
  if (!hosts.length) throw new CliError(`${path} lists no hosts`);
  return hosts;
}

/** The longest dashboard reply taken from a host (its agents and ports). */
export const MAX_HOST_REPLY = 8 * 1024 * 1024;

/** One request through a bridge, answered within `timeoutMs` or failed (ssh is ended either way). */
export async function askHost(host: string, msg: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  const bridge = await openBridge(host, { name: globals.name, timeoutMs });
  const { proc, reader } = bridge;
  try {
    quietly(proc.stdin.write(JSON.stringify(msg) + "\n"));
    quietly(proc.stdin.flush());
    const lines = new LineReader(MAX_HOST_REPLY, "the answer");
    let got = lines.push(bridge.rest);
    while (!got.length) {
      const left = deadline - Date.now();
      const r = await Promise.race([reader.read(), Bun.sleep(Math.max(0, left)).then(() => "timeout" as const)]);
      if (r === "timeout") throw new Error(`no answer within ${formatMs(timeoutMs)}`);
      if (r.done) throw new Error("the server closed the connection without answering");
      got = lines.push(r.value);
    }
    return parseReply(got[0]!);
  } finally {
    try {
      proc.kill();
    } catch {}
  }
}

const isInt = (v: unknown) => Number.isSafeInteger(v);
const isStr = (v: unknown) => typeof v === "string";
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What is wrong with a host's dashboard reply, or undefined: every row is printed and sorted, so each field must be what it says. */
export function badDashboard(r: Record<string, unknown>): string | undefined {
  const agents = r.agents ?? [];
  const ports = r.ports ?? [];
  if (!Array.isArray(agents)) return "agents is not a list";
  if (!Array.isArray(ports)) return "ports is not a list";
  for (const [i, a] of agents.entries()) {
    if (!isObj(a)) return `agents[${i}] is not an object`;
    for (const k of ["workspace", "label", "status"] as const) if (!isStr(a[k])) return `agents[${i}].${k} is not a string`;
    if (!isInt(a.pane)) return `agents[${i}].pane is not a whole number`;
    if (typeof a.secs !== "number" || !Number.isFinite(a.secs)) return `agents[${i}].secs is not a number`;
    if (a.detail !== undefined && a.detail !== null && !isStr(a.detail)) return `agents[${i}].detail is not a string`;
  }
  for (const [i, p] of ports.entries()) {
    if (!isObj(p)) return `ports[${i}] is not an object`;
    for (const k of ["workspace", "tab", "command"] as const) if (!isStr(p[k])) return `ports[${i}].${k} is not a string`;
    for (const k of ["port", "pane"] as const) if (!isInt(p[k])) return `ports[${i}].${k} is not a whole number`;
  }
  return undefined;
}

async function dashboardOf(host: string): Promise<HostResult> {
  try {
    const r = await askHost(host, { v: 5, type: "dashboard" }, globals.timeoutMs || HOST_TIMEOUT_MS);
    if (r.type !== "dashboard") return { host, ok: false, error: String(r.message ?? `unexpected reply ${String(r.type)}`) };
    const bad = badDashboard(r);
    if (bad) return { host, ok: false, error: `bad reply (${bad})` };
    return { host, ok: true, agents: (r.agents as Agent[]) ?? [], ports: (r.ports as DashboardPort[]) ?? [] };
  } catch (e) {
    return { host, ok: false, error: (e as Error).message };
  }
}

const ago = (s: number) => (s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`);
const rank = (status: string) => (Object.hasOwn(URGENCY, status) ? URGENCY[status as keyof typeof URGENCY] : 99);

/** The hosts asked: every -H, then (--all-hosts) the hosts file's, each once. */
export const askedHosts = () => [...new Set([...(globals.hosts ?? []), ...(globals.allHosts ? readHosts() : [])])];

export async function mergedDashboard(): Promise<void> {
  const hosts = askedHosts();
  const results = await Promise.all(hosts.map(dashboardOf));
  const agents = results
    .flatMap((r) => (r.ok ? r.agents.map((a) => ({ host: r.host, ...a })) : []))
    .sort((a, b) => rank(a.status) - rank(b.status) || b.secs - a.secs || a.host.localeCompare(b.host) || a.pane - b.pane);
  const ports = results.flatMap((r) => (r.ok ? r.ports.map((p) => ({ host: r.host, ...p })) : []));
  const down = results.filter((r) => !r.ok) as Extract<HostResult, { ok: false }>[];
  if (globals.json)
    return printResult("dashboard", { hosts: results.map((r) => (r.ok ? { host: r.host, ok: true } : { host: r.host, ok: false, error: r.error })), agents, ports });
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
