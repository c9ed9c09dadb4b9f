// tmux key names → keys → bytes (src/protocol/key-names.ts, src/model/key-encoder.ts), without a server.
import { expect, test } from "bun:test";
import { DEFAULT_MODES, keysToBytes } from "../src/model/key-encoder";
import { KEY_NAMES, parseKeyName } from "../src/protocol/key-names";

const bytes = (...keys: string[]) => keysToBytes(keys, DEFAULT_MODES);

test("names match ignoring case, modifiers in any order and case", () => {
  expect(bytes("escape", "ENTER", "bspace", "space")).toBe("\x1b\r\x7f ");
  expect(bytes("C-c", "c-c", "^c", "C-M-x", "M-C-x", "m-x")).toBe("\x03\x03\x03\x1b\x18\x1b\x18\x1bx");
  expect(bytes("S-Tab", "BTab")).toBe("\x1b[Z\x1b[Z");
  expect(bytes("C-Space", "S-a", "M--")).toBe("\x00A\x1b-");
  expect(bytes("IC", "Insert", "DC", "PPage", "PgUp", "PageUp", "NPage", "PgDn")).toBe("\x1b[2~\x1b[2~\x1b[3~\x1b[5~\x1b[5~\x1b[5~\x1b[6~\x1b[6~");
  expect(bytes("F1", "F12", "S-F5", "M-Left", "C-Up", "Home", "End")).toBe("\x1bOP\x1b[24~\x1b[15;2~\x1b[1;3D\x1b[1;5A\x1b[H\x1b[F");
});

test("keypad keys follow the application keypad mode", () => {
  expect(bytes("KP5", "KP+", "KPEnter")).toBe("5+\r");
  expect(keysToBytes(["KP5", "KP+", "KPEnter"], { ...DEFAULT_MODES, applicationKeypad: true })).toBe("\x1bOu\x1bOk\x1bOM");
});

test("anything else is text, as tmux send-keys types it; literal types names too", () => {
  expect(parseKeyName("hello")).toBeUndefined();
  expect(parseKeyName("C-")).toBeUndefined();
  expect(parseKeyName("F13")).toBeUndefined();
  expect(bytes("hello", " world", ":wq", "^", "C-", "日本")).toBe("hello world:wq^C-日本");
  expect(keysToBytes(["Enter", "C-c"], DEFAULT_MODES, true)).toBe("EnterC-c");
  expect(bytes("é", "")).toBe("é");
});

test("the one name table lists what parses", () => {
  for (const name of KEY_NAMES) expect(parseKeyName(name), name).toBeDefined();
  for (const name of ["Enter", "Escape", "Tab", "BTab", "BSpace", "Up", "PPage", "NPage", "PageUp", "PageDown", "F1", "F12", "IC", "DC", "KPEnter"]) expect(KEY_NAMES).toContain(name);
});

test("ws pane keys: every word after PANE is one key (no comma splitting); -l anywhere; -- before words with a dash", async () => {
  const { commandTable } = await import("../src/cli/index");
  const { parseArgs } = await import("../src/cli-table/parse");
  const cmd = commandTable().find((c) => c.path === "pane keys")!;
  expect(parseArgs(cmd, ["3", "Escape", "a,b", ":wq", "Enter"], {})).toEqual({ pane: 3, keys: ["Escape", "a,b", ":wq", "Enter"] });
  expect(parseArgs(cmd, ["3", "-l", "Enter"], {})).toEqual({ pane: 3, keys: ["Enter"], literal: true });
  expect(parseArgs(cmd, ["", "C-c"], { WS_PANE_ID: "7" })).toEqual({ pane: 7, keys: ["C-c"] });
  expect(parseArgs(cmd, ["3", "--", "-v", "--", "Enter"], {})).toEqual({ pane: 3, keys: ["-v", "--", "Enter"] });
});
