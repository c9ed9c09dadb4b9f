// Bad input gets a clear error and breaks nothing: afterwards every workspace and pane is there.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer, waitFor } from "./harness";
import type { WorkspaceInfo } from "../src/model/views";
import { MIN_VERSION, VERSION } from "../src/protocol/version";

let s: TestServer;
let before: WorkspaceInfo[];
beforeAll(async () => {
  s = await new TestServer().start();
  await s.request({ v: 2, type: "workspace_new", name: "Keep" });
  await s.request({ v: 1, type: "split", pane: 1, cwd: "/tmp", command: ["sh", "-c", "exec cat"], focus: false });
  before = await s.list();
});
afterAll(() => s.stop());

async function intact() {
  expect(await s.list()).toEqual(before);
}

test("invalid JSON gets error: invalid message", async () => {
  expect(await s.rawLine("{not json\n")).toStartWith("error: invalid message: ");
  await intact();
});

test("JSON that is not an object", async () => {
  for (const line of ["[1,2]", "42", '"str"', "null", "true"]) expect(await s.rawLine(line + "\n")).toBe("error: invalid message: expected a JSON object");
  await intact();
});

test("versions 0 and 9 get the spec's version error", async () => {
  // The spec's exact form, with this server's range.
  expect(MIN_VERSION).toBe(1);
  expect(await s.rawLine('{"v":9,"type":"workspace_list"}\n')).toBe(`error: protocol version 9 not supported (this ws speaks 1..=${VERSION})`);
  expect(await s.rawLine('{"v":0,"type":"workspace_list"}\n')).toBe(`error: protocol version 0 not supported (this ws speaks 1..=${VERSION})`);
  expect(await s.rawLine('{"v":"2","type":"workspace_list"}\n')).toStartWith("error: invalid message: ");
  expect(await s.rawLine('{"type":"workspace_list"}\n')).toBe("error: invalid message: missing field `v`");
  await intact();
});

test("unknown types, missing and ill-typed fields", async () => {
  expect(await s.rawLine('{"v":2,"type":"no_such_thing"}\n')).toBe('error: invalid message: unknown type "no_such_thing"');
  expect(await s.rawLine('{"v":2}\n')).toBe("error: invalid message: missing field `type`");
  expect(await s.rawLine('{"v":2,"type":7}\n')).toStartWith("error: invalid message: ");
  expect(await s.rawLine('{"v":2,"type":"pane_send","text":"x"}\n')).toBe("error: invalid message: missing field `pane`");
  expect(await s.rawLine('{"v":2,"type":"pane_send","pane":"1","text":"x"}\n')).toBe("error: invalid message: invalid type for `pane`: string, expected an integer");
  expect(await s.rawLine('{"v":2,"type":"pane_send","pane":1.5,"text":"x"}\n')).toStartWith("error: invalid message: invalid type for `pane`");
  expect(await s.rawLine('{"v":1,"type":"split","pane":1,"cwd":"/tmp","command":"ls"}\n')).toBe("error: invalid message: invalid type for `command`: string, expected an array of strings");
  expect(await s.rawLine('{"v":2,"type":"workspace_new","name":"x","exists_ok":"yes"}\n')).toStartWith("error: invalid message: invalid type for `exists_ok`");
  await intact();
});

test("random bytes", async () => {
  const junk = new Uint8Array(4096);
  for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 256;
  const answer = await s.rawAll(junk, 8000);
  expect(answer).toMatch(/^error: /);
  await intact();
});

test("a 2 MiB line gets an error line and the daemon stays up", async () => {
  const big = '{"v":2,"type":"pane_send","pane":1,"text":"' + "x".repeat(2 * 1024 * 1024) + '"}\n';
  const answer = await s.rawLine(big, 15000);
  expect(answer).toStartWith("error: line too long");
  await intact();
});

test("a line just under 1 MiB is accepted", async () => {
  const text = "y".repeat(1024 * 1024 - 100);
  const line = JSON.stringify({ v: 2, type: "workspace_new", name: "Big", exists_ok: true, padding: text }) + "\n";
  expect(Buffer.byteLength(line)).toBeLessThanOrEqual(1024 * 1024 + 1);
  expect(await s.rawLine(line, 15000)).toBe('{"v":5,"type":"ok"}');
  await s.request({ v: 2, type: "workspace_close", name: "Big" });
  await intact();
});

test("200 connections dropped mid-line", async () => {
  const drops = Array.from({ length: 200 }, async (_, i) => {
    const c = await s.connect();
    c.write(`{"v":2,"type":"tab_new","workspace":"Keep","name":"half-${i}`);
    c.close();
  });
  await Promise.all(drops);
  await intact();
});

test("lines on one connection are answered in order, each before the next", async () => {
  const lines = ['{"v":2,"type":"workspace_list"}', "{bad", '{"v":9,"type":"x"}', '{"v":2,"type":"pane_send","pane":1,"text":""}'];
  const all = await s.rawAll(lines.join("\n") + "\n", 8000);
  const got = all.trim().split("\n");
  expect(got).toHaveLength(4);
  expect(got[0]).toStartWith('{"v":5,"type":"workspaces"');
  expect(got[1]).toStartWith("error: invalid message");
  expect(got[2]).toStartWith("error: protocol version 9");
  expect(got[3]).toBe('{"v":5,"type":"ok"}');
});

test("a connection idle for 2 s is closed by the server", async () => {
  const started = Date.now();
  const c = await s.connect();
  await c.whenClosed(6000);
  const took = Date.now() - started;
  expect(took).toBeGreaterThanOrEqual(1900);
  expect(took).toBeLessThan(6000);
});

test("after all of it every workspace and pane is still there", async () => {
  await waitFor("the daemon to answer", async () => (await s.list()).length === before.length);
  await intact();
});
