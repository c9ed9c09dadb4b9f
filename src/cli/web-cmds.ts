// ws web (serve the browser pages) and ws web tokens (their logins and sessions): docs/web.md.
import { request } from "../client/request";
import { VERSION } from "../protocol/version";
import { newLogin, readStore, revoke, storePath } from "../web/auth-store";
import { DEFAULT_LISTEN, listenRefusal, parseListen } from "../web/listen";
import { EXIT_USAGE } from "./exit-status";
import { CliError, globals, print, printError, printResult, sock } from "./common";
import { startDaemon } from "./server-cmds";

export async function web({ fields }: { fields: Record<string, unknown> }): Promise<void> {
  // A pane's programs have that pane's grants, never the person's: ws web serves the person's.
  if (process.env.WS_PANE_ID) throw insidePane("ws web serves the person's session", INSIDE_PANE);
  let listen;
  try {
    listen = parseListen(typeof fields.listen === "string" ? fields.listen : DEFAULT_LISTEN);
  } catch (e) {
    throw new CliError((e as Error).message, EXIT_USAGE, "usage");
  }
  const cert = fields.tls_cert as string | undefined;
  const key = fields.tls_key as string | undefined;
  if ((cert === undefined) !== (key === undefined)) throw new CliError("--tls-cert and --tls-key go together", EXIT_USAGE, "usage");
  const tls = cert !== undefined && key !== undefined ? { cert, key } : undefined;
  const refusal = listenRefusal(listen, tls !== undefined, fields.insecure === true);
  if (refusal) throw new CliError(refusal, EXIT_USAGE, "usage");
  const path = sock();
  if (globals.hosts === undefined) {
    await startDaemon(path);
    await refuseInsidePane(path, "ws web serves the person's session");
  }
  const store = storePath(path);
  const { serveWeb } = await import("../web/server");
  let server;
  try {
    server = serveWeb({ socketPath: path, listen, ...(tls ? { tls } : {}), storePath: store, log: printError });
  } catch (e) {
    throw new CliError(`ws web could not listen on ${listen.hostname}:${listen.port}: ${(e as Error).message}`);
  }
  const host = listen.hostname.includes(":") ? `[${listen.hostname}]` : listen.hostname;
  const base = `${tls ? "https" : "http"}://${host}:${server.port}`;
  const token = newLogin(store, base);
  print(`ws web: serving ${path} on ${base} (Ctrl-C stops it)`);
  print(`log in (once; ws web tokens --new prints another): ${base}/login?token=${token}`);
  print(`terminal: ${base}/   phone: ${base}/phone`);
  await new Promise<void>((resolve) => {
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(sig, () => resolve());
  });
  server.stop(true);
  process.exit(0);
}

const INSIDE_PANE = "this runs inside a ws pane (whose programs have that pane's grants only): run it from a terminal outside ws";
const insidePane = (what: string, why: string) => new CliError(`${what}, and ${why}`, 1, "forbidden");

/** ws web and its login URLs are the person's way in (the phone page answers approvals as the
 * person), so the server must place this process outside every pane, by the walk that refuses
 * `ws approve` from one: it answers a person verb (attach_clients, which changes nothing) only to
 * the person. */
async function refuseInsidePane(path: string, what: string): Promise<void> {
  if (process.env.WS_PANE_ID) throw insidePane(what, INSIDE_PANE);
  let reply;
  try {
    reply = await request(path, { v: VERSION, id: 1, type: "attach_clients" });
  } catch (e) {
    throw insidePane(what, `the ws server could not say this runs outside ws: ${(e as Error).message}`);
  }
  if (reply.type === "error") throw insidePane(what, reply.code === "forbidden" ? INSIDE_PANE : `the ws server refused: ${String(reply.message)}`);
}

export async function webTokens({ fields }: { fields: Record<string, unknown> }): Promise<void> {
  const store = storePath(sock());
  if (typeof fields.revoke === "string") {
    const n = revoke(store, fields.revoke);
    if (n === 0 && fields.revoke !== "all") throw new CliError(`no web session ${fields.revoke} (ws web tokens lists them)`, 1, "not_found");
    return globals.json ? printResult("web_revoked", { revoked: n }) : print(`revoked ${n} web session${n === 1 ? "" : "s"}`);
  }
  if (fields.new === true) {
    const url = readStore(store).url;
    if (!url) throw new CliError("ws web has not run for this server: start it (it prints a login URL)");
    await refuseInsidePane(sock(), "ws web tokens --new makes a login for the person");
    const token = newLogin(store);
    return globals.json ? printResult("web_login", { url: `${url}/login?token=${token}` }) : print(`${url}/login?token=${token}`);
  }
  const { sessions, logins } = readStore(store);
  if (globals.json) return printResult("web_sessions", { sessions: sessions.map(({ hash: _h, ...s }) => s), logins_waiting: logins.length });
  if (!sessions.length) print("no web sessions");
  for (const s of sessions) print(`${s.id}  since ${new Date(s.created).toISOString()}  ${s.agent}`);
  if (logins.length) print(`${logins.length} login URL${logins.length === 1 ? "" : "s"} not used yet`);
}
