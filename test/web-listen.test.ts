// ws web's address rules (src/web/listen.ts): what --listen takes, what counts as loopback, when
// TLS is needed, and which Host headers a loopback ws web answers (a DNS-rebinding page's is not).
import { expect, test } from "bun:test";
import { hostAllowed, isLoopback, listenRefusal, parseListen } from "../src/web/listen";

test("--listen takes ADDR:PORT, [IPv6]:PORT and :PORT, and refuses the rest", () => {
  expect(parseListen("127.0.0.1:7681")).toEqual({ hostname: "127.0.0.1", port: 7681 });
  expect(parseListen("[::1]:0")).toEqual({ hostname: "::1", port: 0 });
  expect(parseListen(":8080")).toEqual({ hostname: "127.0.0.1", port: 8080 });
  expect(parseListen("0.0.0.0:443")).toEqual({ hostname: "0.0.0.0", port: 443 });
  for (const bad of ["127.0.0.1", "127.0.0.1:70000", "::1:80", "host:port", "", "a b:1"]) expect(() => parseListen(bad)).toThrow(/ADDR:PORT/);
});

test("only loopback is served without TLS, unless --insecure is typed", () => {
  for (const h of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]) expect(isLoopback(h)).toBe(true);
  for (const h of ["0.0.0.0", "::", "192.168.1.2", "example.com", "127.0.0.1.example.com"]) expect(isLoopback(h)).toBe(false);
  expect(listenRefusal({ hostname: "127.0.0.1", port: 1 }, false, false)).toBeUndefined();
  expect(listenRefusal({ hostname: "0.0.0.0", port: 1 }, false, false)).toMatch(/--tls-cert/);
  expect(listenRefusal({ hostname: "0.0.0.0", port: 1 }, true, false)).toBeUndefined();
  expect(listenRefusal({ hostname: "0.0.0.0", port: 1 }, false, true)).toBeUndefined();
});

test("on loopback, only a loopback Host with the right port is answered", () => {
  const lo = { hostname: "127.0.0.1", port: 0 };
  for (const h of ["127.0.0.1:4000", "localhost:4000", "[::1]:4000"]) expect(hostAllowed(h, lo, 4000)).toBe(true);
  for (const h of ["evil.example:4000", "127.0.0.1:4001", "127.0.0.1", null, "localhost.evil.example:4000"]) expect(hostAllowed(h, lo, 4000)).toBe(false);
  // Elsewhere the names it is reached by are the network's: the cookie and Origin guard it.
  expect(hostAllowed("ws.example:443", { hostname: "0.0.0.0", port: 443 }, 443)).toBe(true);
});
