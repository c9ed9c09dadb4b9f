// Who may use `ws web`: one-time login tokens and the browser sessions they became, kept in
// <state>/ws/web-<server>.json (mode 0600) so that `ws web tokens` in another process lists and
// revokes them, and the running `ws web` sees that at its next request. Only SHA-256 hashes of the
// tokens and cookies are kept: the file lets nobody in.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { mainSocketOfPane } from "../paths";
import { writeAtomicSync } from "../write-atomic";
import { wsDir } from "../xdg-dirs";

/** How long a printed login URL stays good if nobody uses it. */
export const LOGIN_TTL_MS = 24 * 3600_000;
/** Logins and sessions kept at once: the oldest go first. */
export const MAX_ENTRIES = 64;

export interface LoginEntry {
  hash: string;
  created: number;
}

export interface SessionEntry {
  /** What `ws web tokens --revoke` takes. */
  id: string;
  hash: string;
  created: number;
  /** The browser's User-Agent when it logged in, cut short: to tell sessions apart. */
  agent: string;
}

export interface Store {
  /** Where the running `ws web` listens (its URL), so `ws web tokens --new` can print a login URL. */
  url?: string;
  logins: LoginEntry[];
  sessions: SessionEntry[];
}

export const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");
const secret = () => randomBytes(32).toString("base64url");

/** The store of the server on `socketPath` (a pane socket: its server's): <state>/ws/web-<name>.json. */
export function storePath(socketPath: string, env: Record<string, string | undefined> = process.env): string {
  const main = mainSocketOfPane(socketPath) ?? socketPath;
  const name = main.slice(main.lastIndexOf("/") + 1).replace(/\.sock$/, "");
  return wsDir("state", env, `web-${name}.json`);
}

export function readStore(path: string): Store {
  try {
    const j = JSON.parse(readFileSync(path, "utf8")) as Partial<Store>;
    const str = (v: unknown): v is string => typeof v === "string";
    return {
      ...(str(j.url) ? { url: j.url } : {}),
      logins: Array.isArray(j.logins) ? j.logins.filter((l) => str(l?.hash) && typeof l.created === "number") : [],
      sessions: Array.isArray(j.sessions) ? j.sessions.filter((s) => str(s?.id) && str(s.hash) && typeof s.created === "number" && str(s.agent)) : [],
    };
  } catch {
    return { logins: [], sessions: [] };
  }
}

export function writeStore(path: string, store: Store): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeAtomicSync(path, `${JSON.stringify(store, null, 1)}\n`, { mode: 0o600 });
}

function update<T>(path: string, change: (s: Store) => T): T {
  const store = readStore(path);
  const now = Date.now();
  store.logins = store.logins.filter((l) => now - l.created < LOGIN_TTL_MS);
  const out = change(store);
  store.logins = store.logins.slice(-MAX_ENTRIES);
  store.sessions = store.sessions.slice(-MAX_ENTRIES);
  writeStore(path, store);
  return out;
}

/** A new one-time login token (what the login URL carries). */
export function newLogin(path: string, url?: string): string {
  const token = secret();
  update(path, (s) => {
    if (url !== undefined) s.url = url;
    s.logins.push({ hash: hashOf(token), created: Date.now() });
  });
  return token;
}

/** Trade a login token for a session: the cookie's value, or undefined when the token is not (or
 * no longer) good. A token works once. */
export function useLogin(path: string, token: string, agent: string): { cookie: string; id: string } | undefined {
  const hash = hashOf(token);
  return update(path, (s) => {
    const i = s.logins.findIndex((l) => l.hash === hash);
    if (i < 0) return undefined;
    s.logins.splice(i, 1);
    const cookie = secret();
    const id = randomBytes(4).toString("hex");
    s.sessions.push({ id, hash: hashOf(cookie), created: Date.now(), agent: agent.replace(/[^\x20-\x7e]/g, "?").slice(0, 120) });
    return { cookie, id };
  });
}

/** Revoke a session by id, or every one ("all"); how many went. */
export function revoke(path: string, id: string): number {
  return update(path, (s) => {
    const before = s.sessions.length;
    s.sessions = id === "all" ? [] : s.sessions.filter((e) => e.id !== id);
    if (id === "all") s.logins = [];
    return before - s.sessions.length;
  });
}

/** The sessions, read again only when the file changed (each request asks). */
export class SessionCheck {
  private seen = "";
  private hashes = new Map<string, SessionEntry>();

  constructor(private readonly path: string) {}

  session(cookie: string | undefined): SessionEntry | undefined {
    if (!cookie) return undefined;
    // Each write renames a new file into place: a new inode says it changed, whatever the clock did.
    let seen = "none";
    try {
      const st = statSync(this.path);
      seen = `${st.ino}:${st.mtimeMs}`;
    } catch {}
    if (seen !== this.seen) {
      this.seen = seen;
      this.hashes = new Map(readStore(this.path).sessions.map((s) => [s.hash, s]));
    }
    return this.hashes.get(hashOf(cookie));
  }
}
