// The limits: 1024 connections, then too_many_connections; a large request that finds no memory
// budget within 2 s is refused with busy having done nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Conn, TestServer, waitFor } from "./harness";
import type { AnyReply, V6Reply } from "./replies";
import { parseReply } from "../src/protocol/envelope";
import { RESERVED_SLOTS } from "../src/server/listener";

let s: TestServer;
beforeAll(async () => {
  s = await new TestServer({ env: { WS_REQUEST_BUDGET: String(100 * 1024) } }).start();
});
afterAll(() => s.stop());

test("at most 1024 connections, the last 16 for short requests only: then too_many_connections; others are unharmed", async () => {
  const held: Conn[] = [];
  const tricklers: ReturnType<typeof setInterval>[] = [];
  try {
    // Subscribers hold their connections open (an idle connection would be closed after 2 s).
    // Each waits for its acknowledgement, so the client never outruns the listen backlog.
    for (let i = 0; i < 1024 - RESERVED_SLOTS; i++) {
      const c = await Conn.open(s.sock);
      c.send({ v: 6, type: "subscribe", types: ["workspace_created"] });
      held.push(c);
      expect((await c.nextJson()).type).toBe("subscribed");
    }
    // The reserved slots refuse what would hold them, and answer short requests.
    const stream = await Conn.open(s.sock);
    held.push(stream);
    stream.send({ v: 6, type: "wait_for", condition: "pane_exists", pane: 999, timeout: 20000 });
    expect(await stream.next()).toMatchObject({ type: "error", code: "too_many_connections" });
    expect((await s.v6({ type: "hello" })).type).toBe("hello");
    // A reserved slot is closed after 1 s idle, by the server: then the reserve is free again.
    await waitFor("the server to close the idle reserved connection", () => stream.closed);
    // Fill the reserve too, with connections that keep sending part of a line.
    for (let i = 0; i < RESERVED_SLOTS; i++) {
      const c = await Conn.open(s.sock);
      held.push(c);
      c.write("{");
      tricklers.push(setInterval(() => c.write(" "), 100));
    }
    const over = await s.rawAll('{"v":6,"type":"hello"}\n');
    expect(over).toBe("error: too many connections (this ws serves at most 1024 at once)\n");
    expect(parseReply(over).code).toBe("too_many_connections");
    for (const t of tricklers.splice(0)) clearInterval(t);
    held.shift()!.close();
    // Once one has gone, a new connection is served; the held ones still get their events.
    let hello: V6Reply<"hello"> | undefined;
    for (let i = 0; i < 50 && hello?.type !== "hello"; i++) hello = await s.v6({ type: "hello" });
    expect(hello?.type).toBe("hello");
  } finally {
    for (const t of tricklers) clearInterval(t);
    for (const c of held) c.close();
  }
}, 60_000);

test("a request over 64 KiB with no budget waits up to 2 s, then is refused with busy, having done nothing", async () => {
  // Hold most of the (100 KiB) budget with a large wait that will not end by itself.
  const holder = await Conn.open(s.sock);
  // (Not an output wait: a pattern is refused at once past 4096 characters.)
  holder.send({ v: 6, id: "hold", type: "wait_for", condition: "workspace_exists", workspace: "q".repeat(70 * 1024), timeout: 20000 });
  const marker = "m".repeat(70 * 1024);
  let r: AnyReply | undefined;
  const t0 = Date.now();
  for (let i = 0; i < 20; i++) {
    r = await s.v6({ id: "big", type: "pane_send", pane: 1, text: `: ${marker}` });
    if (r?.code === "busy") break;
  }
  const waited = Date.now() - t0;
  expect(r).toMatchObject({ v: 6, id: "big", type: "error", code: "busy" });
  expect(waited).toBeGreaterThanOrEqual(1900);
  expect((await s.v6({ type: "pane_read", pane: 1, source: "recent" })).text).not.toContain("mmmmmmmm");
  // Small requests are not held back.
  expect((await s.v6({ type: "hello" })).type).toBe("hello");
  // The holder goes: its budget comes back and the large request goes through.
  holder.close();
  let ok: AnyReply | undefined;
  for (let i = 0; i < 10 && ok?.type !== "ok"; i++) ok = await s.v6({ type: "pane_send", pane: 1, text: `: ${marker}` });
  expect(ok?.type).toBe("ok");
  // Legacy lines get busy in their own style.
  const h2 = await Conn.open(s.sock);
  h2.send({ v: 6, type: "wait_for", condition: "workspace_exists", workspace: "z".repeat(70 * 1024), timeout: 20000 });
  let legacy: AnyReply | undefined;
  for (let i = 0; i < 20; i++) {
    legacy = await s.request({ v: 2, type: "pane_send", pane: 1, text: marker });
    if (legacy?.type === "error") break;
  }
  expect(legacy?.v).toBe(5);
  expect(legacy?.message).toMatch(/^busy: /);
  h2.close();
}, 60_000);

test("a line over 1 MiB on a v6 connection gets line_too_long as JSON", async () => {
  const c = await Conn.open(s.sock);
  c.send({ v: 6, type: "hello" });
  await c.next();
  c.write("{" + "x".repeat(1024 * 1024 + 10) + "\n");
  expect(await c.next()).toMatchObject({ v: 6, type: "error", code: "line_too_long" });
});
