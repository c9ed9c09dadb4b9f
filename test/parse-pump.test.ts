// How output gets into a pane's emulator (docs/pane-pipeline.md): xterm's own parse step, called
// in slices ws times itself, and the history each pane keeps, which the user's WS_SCROLLBACK sets.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { emulatorInput, syncParse } from "../src/model/emulator-input";
import { SCROLLBACK_DEFAULT, SCROLLBACK_MAX, scrollbackSetting } from "../src/model/pane";
import { TestServer, waitFor } from "./harness";
import type { Replies } from "./replies";

const firstLine = (t: Terminal) => t.buffer.active.getLine(0)?.translateToString(true);

test("this xterm has the parse step ws uses: output is parsed the moment it is handed over", () => {
  // Without it every pane falls back to xterm's public write, which waits a timer per piece:
  // an xterm upgrade that renamed it must fail here, not slow ws down silently.
  const t = new Terminal({ cols: 20, rows: 4, allowProposedApi: true });
  expect(syncParse(t)).not.toBeNull();
  expect(emulatorInput(t)(Buffer.from("héllo\r\nworld"))).toBeUndefined();
  expect(firstLine(t)).toBe("héllo");
  // A character split between two pieces still decodes whole.
  const input = emulatorInput(t);
  const e9 = Buffer.from("\r\né");
  input(e9.subarray(0, 3));
  input(e9.subarray(3));
  expect(t.buffer.active.getLine(2)?.translateToString(true)).toBe("é");
  t.dispose();
});

test("a parser handler that answers later holds the parse where it was, then goes on in order", async () => {
  const t = new Terminal({ cols: 20, rows: 4, allowProposedApi: true });
  let release!: () => void;
  // xterm's parser takes async handlers; the headless typings only declare sync ones.
  const later = () => new Promise<boolean>((r) => (release = () => r(true)));
  t.parser.registerOscHandler(777, later as unknown as () => boolean);
  const pending = emulatorInput(t)(Buffer.from("a\x1b]777;x\x07b"));
  expect(pending).toBeInstanceOf(Promise);
  expect(firstLine(t)).toBe("a");
  release();
  await pending;
  expect(firstLine(t)).toBe("ab");
  t.dispose();
});

test("WS_SCROLLBACK: a whole number of lines up to the maximum, anything else the default", () => {
  expect(scrollbackSetting(undefined)).toBe(SCROLLBACK_DEFAULT);
  expect(scrollbackSetting("2000")).toBe(2000);
  expect(scrollbackSetting("0")).toBe(0);
  expect(scrollbackSetting(String(SCROLLBACK_MAX))).toBe(SCROLLBACK_MAX);
  for (const bad of ["", " ", "abc", "-1", "1.5", "1e3", "+5", String(SCROLLBACK_MAX + 1), "0x10"]) expect(scrollbackSetting(bad)).toBe(SCROLLBACK_DEFAULT);
});

let s: TestServer;
beforeAll(async () => {
  s = await new TestServer({ env: { WS_SCROLLBACK: "300" } }).start();
});
afterAll(() => s.stop());

test("the user's WS_SCROLLBACK is the history a pane keeps", async () => {
  const r = await s.request<Replies["tab_new"]>({ v: 2, type: "tab_new", cwd: "/tmp", command: ["sh", "-c", "seq 1 5000; echo SEQ-DONE; exec cat"] });
  await waitFor("the end of the output", async () => (await s.screen(r.pane)).includes("SEQ-DONE"), 30_000, 50);
  const numbers = (await s.screen(r.pane, true)).split("\n").filter((l) => /^\d+$/.test(l)).map(Number);
  const rows = (await s.screen(r.pane)).split("\n").length;
  expect(numbers.at(-1)).toBe(5000);
  expect(numbers.length).toBeGreaterThanOrEqual(300);
  expect(numbers.length).toBeLessThanOrEqual(300 + rows);
  for (let i = 1; i < numbers.length; i++) expect(numbers[i]).toBe(numbers[i - 1]! + 1);
}, 60_000);
