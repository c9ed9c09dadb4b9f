// `ws web`'s HTTP and WebSocket server (Bun.serve): the login, the two pages and their files, the
// attach WebSocket and the phone page's API. Every request but a login needs the session cookie;
// the WebSocket upgrade and every POST also need this origin's Origin, and on loopback a loopback
// Host (a DNS-rebinding page has neither the cookie nor the Host).
import type { Server, ServerWebSocket } from "bun";
import { randomBytes } from "node:crypto";
import { AttachBridge, MAX_BROWSER_BACKLOG } from "./attach-bridge";
import { SessionCheck, useLogin } from "./auth-store";
import { hostAllowed, type ListenAddress } from "./listen";
import { ASSETS, notice, phonePage, securityHeaders, terminalPage } from "./pages";
import { ApiError, answerApproval, answerQuestion, paneScreen, phoneState } from "./phone-api";
import { pushKey, pushSubscribe, pushUnsubscribe } from "./push-api";
import { RateLimit } from "./rate-limit";

/** Login attempts (good or bad) allowed in a minute. */
export const LOGINS_PER_MINUTE = 10;
/** A browser's input messages larger than this are dropped (a paste is one message). */
const MAX_INPUT = 1024 * 1024;

export interface WebOptions {
  socketPath: string;
  listen: ListenAddress;
  tls?: { cert: string; key: string };
  storePath: string;
  escapeMs?: number;
  log: (line: string) => void;
}

interface SocketData {
  cols: number;
  rows: number;
  /** The session's cookie: a revoked session's attach ends too. */
  cookie: string;
  bridge?: AttachBridge;
}

/** How often open attaches are checked against the sessions (`ws web tokens --revoke`). */
const REVOKE_CHECK_MS = 2000;

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

export function serveWeb(o: WebOptions): Server<SocketData> {
  const secure = o.tls !== undefined;
  // Under TLS the __Host- prefix also binds the cookie to this host and path, Secure and unshared.
  const cookieName = secure ? "__Host-ws_session" : "ws_session";
  const sessions = new SessionCheck(o.storePath);
  const logins = new RateLimit(LOGINS_PER_MINUTE, 60_000);
  const scheme = secure ? "https" : "http";

  const page = (status: number, body: string, nonce?: string, extra: Record<string, string> = {}) =>
    new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...securityHeaders(nonce), ...extra } });
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...securityHeaders() } });
  const sameOrigin = (req: Request) => req.headers.get("origin") === `${scheme}://${req.headers.get("host")}`;

  const attached = new Set<ServerWebSocket<SocketData>>();
  const server = Bun.serve<SocketData>({
    hostname: o.listen.hostname,
    port: o.listen.port,
    ...(o.tls ? { tls: { cert: Bun.file(o.tls.cert), key: Bun.file(o.tls.key) } } : {}),
    async fetch(req, srv) {
      const url = new URL(req.url);
      if (!hostAllowed(req.headers.get("host"), o.listen, srv.port ?? o.listen.port)) return page(421, notice("Wrong host", "ws web answers only to this machine's own names."));
      if (url.pathname === "/login") {
        if (!logins.take()) return page(429, notice("Too many logins", "Wait a minute and try again."), undefined, { "retry-after": String(Math.ceil(logins.retryAfterMs() / 1000)) });
        const session = useLogin(o.storePath, url.searchParams.get("token") ?? "", req.headers.get("user-agent") ?? "");
        if (!session) {
          o.log("ws web: a login with a token that is not good (used, expired, revoked or mistyped) was refused");
          return page(403, notice("Not logged in", "This login link is used, expired or wrong. `ws web tokens --new` prints another."));
        }
        o.log(`ws web: a browser logged in (session ${session.id})`);
        const cookie = `${cookieName}=${session.cookie}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
        return new Response(null, { status: 303, headers: { location: "/", "set-cookie": cookie, ...securityHeaders() } });
      }
      if (!sessions.session(cookieValue(req, cookieName))) return page(401, notice("Log in first", "Open the login URL that `ws web` printed (or `ws web tokens --new` prints)."));
      const asset = ASSETS[url.pathname];
      // The service worker's scope is /, the path of its script's folder, hence /sw.js and not /assets/.
      if (asset && req.method === "GET") return new Response(asset.body, { headers: { "content-type": asset.type, ...securityHeaders() } });
      const nonce = randomBytes(16).toString("base64");
      if (req.method === "GET" && url.pathname === "/") return page(200, terminalPage(nonce), nonce);
      if (req.method === "GET" && url.pathname === "/phone") return page(200, phonePage(nonce), nonce);
      if (url.pathname === "/attach") {
        if (!sameOrigin(req)) return page(403, notice("Refused", "The WebSocket's Origin is not this page's."));
        const cols = Number(url.searchParams.get("cols"));
        const rows = Number(url.searchParams.get("rows"));
        if (srv.upgrade(req, { data: { cols, rows, cookie: cookieValue(req, cookieName)! } })) return undefined;
        return page(400, notice("Refused", "Expected a WebSocket upgrade."));
      }
      if (url.pathname.startsWith("/api/")) {
        try {
          if (req.method === "GET" && url.pathname === "/api/state") return json(200, await phoneState(o.socketPath));
          if (req.method === "GET" && url.pathname === "/api/pane") return json(200, await paneScreen(o.socketPath, url.searchParams.get("pane")));
          if (req.method === "GET" && url.pathname === "/api/push/key") return json(200, pushKey());
          if (req.method === "POST" && !sameOrigin(req)) return json(403, { error: "the request's Origin is not this page's" });
          if (req.method === "POST" && url.pathname === "/api/approval") return json(200, await answerApproval(o.socketPath, req));
          if (req.method === "POST" && url.pathname === "/api/question") return json(200, await answerQuestion(o.socketPath, req));
          if (req.method === "POST" && url.pathname === "/api/push/subscribe") return json(200, await pushSubscribe(req));
          if (req.method === "POST" && url.pathname === "/api/push/unsubscribe") return json(200, await pushUnsubscribe(req));
        } catch (e) {
          return json(e instanceof ApiError ? e.status : 502, { error: (e as Error).message });
        }
      }
      return page(404, notice("Not found", url.pathname));
    },
    websocket: {
      maxPayloadLength: MAX_INPUT,
      backpressureLimit: MAX_BROWSER_BACKLOG,
      closeOnBackpressureLimit: true,
      open(ws: ServerWebSocket<SocketData>) {
        attached.add(ws);
        ws.data.bridge = new AttachBridge(
          o.socketPath,
          {
            bytes: (b) => void ws.sendBinary(b),
            exit: (message) => {
              ws.send(JSON.stringify({ exit: message }));
              ws.close(1000, "attach ended");
            },
          },
          o.escapeMs,
        );
        ws.data.bridge.start(ws.data.cols, ws.data.rows);
      },
      message(ws: ServerWebSocket<SocketData>, m: string | Buffer) {
        if (typeof m !== "string") return ws.data.bridge?.input(m);
        try {
          const c = JSON.parse(m) as { resize?: unknown };
          if (Array.isArray(c.resize)) ws.data.bridge?.resize(c.resize[0], c.resize[1]);
        } catch {} // not JSON: dropped, as the server drops a bad event
      },
      close(ws: ServerWebSocket<SocketData>) {
        attached.delete(ws);
        ws.data.bridge?.close();
      },
    },
  });
  const revoked = setInterval(() => {
    for (const ws of attached)
      if (!sessions.session(ws.data.cookie)) {
        ws.data.bridge?.close();
        ws.send(JSON.stringify({ exit: "this browser's session was revoked (ws web tokens)" }));
        ws.close(1008, "session revoked");
      }
  }, REVOKE_CHECK_MS);
  revoked.unref();
  return server;
}
