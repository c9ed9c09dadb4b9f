// pane_send_keys / ws pane keys: keys by tmux's names into real programs (vim, less, bash) in real
// PTYs, encoded for the program's modes; the bytes a program gets are read back with od.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";

let s: TestServer;
let dir: string;
beforeAll(async () => {
  s = await new TestServer().start();
  dir = mkdtempSync(join(s.root, "keys-"));
});
afterAll(() => s.stop());

const newPane = async (...command: string[]) => Number((await s.ok(["tab", "new", "--cwd", dir, "--", ...command])).trim());
const exitOf = (pane: number) => s.ok(["wait", "exit", String(pane), "--timeout", "10000"]);

/** The bytes a raw-mode program got for `keys`, as od prints them: `setup` runs before (e.g. DECCKM on). */
async function received(args: string[], count: number, setup = ""): Promise<string> {
  const script = `${setup}stty raw -echo; printf 'READY\\r\\n'; dd bs=1 count=${count} 2>/dev/null | od -An -tx1 | tr -s ' \\n' '  '; printf '\\r\\nEND\\r\\n'; sleep 100`;
  const pane = await newPane("sh", "-c", script);
  await s.waitScreen(pane, "READY");
  await s.ok(["pane", "keys", String(pane), ...args]);
  const screen = await s.waitScreen(pane, "END");
  return screen.split("\n")[1]!.trim();
}

test("Escape leaves vim's insert mode and :wq writes the file (keys, not a paste)", async () => {
  const file = join(dir, "note.txt");
  const pane = await newPane("vim", "-u", "NONE", "-N", file);
  await s.waitScreen(pane, /note\.txt/);
  await s.ok(["pane", "keys", String(pane), "i", "hello from keys", "Escape", ":wq", "Enter"]);
  expect(await exitOf(pane)).toBe("0\n");
  expect(readFileSync(file, "utf8")).toBe("hello from keys\n");
});

test("less: Down and NPage scroll, / searches, q quits", async () => {
  writeFileSync(join(dir, "lines.txt"), Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  const pane = await newPane("less", "lines.txt");
  await s.waitScreen(pane, /^line 1$/m);
  await s.ok(["pane", "keys", String(pane), "Down"]);
  await s.waitScreen(pane, /^line 2\n/); // the top line
  const rows = (await s.screen(pane)).split("\n").length;
  await s.ok(["pane", "keys", String(pane), "NPage"]);
  // A page on: the top line moved by about a screen (less keeps a line or so).
  const top = await waitFor("less to page down", async () => {
    const first = Number(/^line (\d+)$/m.exec(await s.screen(pane))?.[1]);
    return first > 10 ? first : undefined;
  });
  expect(top).toBeGreaterThanOrEqual(rows - 2);
  await s.ok(["pane", "keys", String(pane), "/line 400", "Enter"]);
  await s.waitScreen(pane, /^line 400\n/);
  await s.ok(["pane", "keys", String(pane), "q"]);
  expect(await exitOf(pane)).toBe("0\n");
});

test("C-c interrupts sleep in a shell and the prompt comes back; Up recalls history", async () => {
  const pane = await newPane("bash", "--norc", "--noprofile", "-i");
  await s.waitScreen(pane, "$ ");
  await s.ok(["pane", "keys", String(pane), "sleep 100", "Enter"]);
  await waitFor("sleep to run in the foreground", async () => (await s.v6({ type: "pane_info", pane })).foreground?.argv?.[0] === "sleep");
  await s.ok(["pane", "keys", String(pane), "C-c"]);
  await s.ok(["pane", "keys", String(pane), "echo back-$((40+2))", "Enter"]);
  await s.waitScreen(pane, /^back-42$/m);
  await s.ok(["pane", "keys", String(pane), "Up", "Enter"]);
  await waitFor("history to run again", async () => ((await s.screen(pane)).match(/^back-42$/gm)?.length ?? 0) === 2);
});

test("names become their keys' bytes; other words are typed as text", async () => {
  // notakey, Tab, C-a, M-x, S-Tab, C-Space, BSpace, F1, C-M-b, space
  expect(await received(["notakey", "Tab", "C-a", "M-x", "S-Tab", "C-Space", "BSpace", "F1", "C-M-b", "Space"], 22)).toBe(
    "6e 6f 74 61 6b 65 79 09 01 1b 78 1b 5b 5a 00 7f 1b 4f 50 1b 02 20",
  );
});

test("cursor keys follow DECCKM: application mode gets ESC O A, normal mode ESC [ A", async () => {
  expect(await received(["Up", "Left"], 6)).toBe("1b 5b 41 1b 5b 44");
  expect(await received(["Up", "Left"], 6, "printf '\\033[?1h'; ")).toBe("1b 4f 41 1b 4f 44");
});

test("-l types every word as text, key names included", async () => {
  expect(await received(["-l", "Enter", "C-c"], 8)).toBe("45 6e 74 65 72 43 2d 63");
});

test("describe lists the key names; bad requests are refused and leave the pane as it was", async () => {
  const d = await s.v6({ id: 1, type: "describe", message: "pane_send_keys" });
  const keys = d.messages[0]!.fields.find((f) => f.name === "keys");
  for (const name of ["Escape", "PPage", "NPage", "BSpace", "F12", "KPEnter", "C-"]) expect(keys!.description).toContain(name);
  expect((await s.v6({ id: 2, type: "pane_send_keys", pane: 9999, keys: ["Enter"] })).code).toBe("pane_not_found");
  expect((await s.v6({ id: 3, type: "pane_send_keys", pane: 1, keys: "Enter" })).code).toBe("invalid_params");
  const r = await s.run(["pane", "keys", "1"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("needs KEYS");
});

test("a program that pushed kitty keyboard flags gets kitty's encoding; after popping, xterm's", async () => {
  // Escape, C-c, a: CSI 27 u, CSI 99;5 u, a.
  expect(await received(["Escape", "C-c", "a"], 13, "printf '\\033[>1u'; ")).toBe("1b 5b 32 37 75 1b 5b 39 39 3b 35 75 61");
  expect(await received(["Escape", "C-c", "a"], 3, "printf '\\033[>1u\\033[<u'; ")).toBe("1b 03 61");
});
