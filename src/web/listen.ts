// Where `ws web` listens, and whether it may: loopback addresses only, unless TLS is set up (or the
// person typed --insecure), because the pages carry a shell with the person's authority.
export interface ListenAddress {
  hostname: string;
  port: number;
}

export const DEFAULT_LISTEN = "127.0.0.1:7681";

/** ADDR:PORT, [IPv6]:PORT, or :PORT (loopback); throws with a message a person can act on. */
export function parseListen(text: string): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[3]) : NaN;
  if (!m || !(port >= 0 && port <= 65535)) throw new Error(`--listen takes ADDR:PORT (127.0.0.1:7681, [::1]:7681, :7681), got ${JSON.stringify(text)}`);
  const hostname = m[1] ?? (m[2] || "127.0.0.1");
  return { hostname, port };
}

/** Whether `hostname` names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why `ws web` may not listen there as asked, or undefined when it may. */
export function listenRefusal(addr: ListenAddress, tls: boolean, insecure: boolean): string | undefined {
  if (isLoopback(addr.hostname) || tls || insecure) return undefined;
  return `refusing to serve a shell on ${addr.hostname} without TLS: give --tls-cert FILE --tls-key FILE, or type --insecure to serve plain http there anyway (anyone on the way can read the session)`;
}

/** The Host header values a browser sends for this address: the listened name, and for loopback
 * also the other loopback names. Any other Host (a DNS-rebinding page) is refused on loopback. */
export function hostAllowed(host: string | null, addr: ListenAddress, port: number): boolean {
  if (!host) return false;
  if (!isLoopback(addr.hostname)) return true; // reached by names this process cannot know
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(host);
  if (!m) return false;
  return isLoopback(m[1] ?? m[2]!) && Number(m[3] ?? NaN) === port;
}
