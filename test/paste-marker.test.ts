// Issue 22, item 6: the end-of-paste marker never survives the filter. A program with bracketed
// paste on takes what follows the first ESC[201~ as keystrokes, so pasted text must hold none, also
// none that removing one would form (`ESC[20` ESC[201~ `1~`). A raw reader in a real pane records
// the exact bytes each sender delivers: pane_send, agent_send and the tmux shim's paste-buffer; and
// a real bash with bracketed paste (readline's default) shows the consequence: nothing runs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, standInAgentServer, waitFor } from "./harness";
import { withoutPasteEnd } from "../src/model/paste";

const READER = join(ROOT, "test/fixtures/raw-reader.py");
const END = "\x1b[201~";
const START = "\x1b[200~";

let s: TestServer;
const screen = async (pane: number) => (await s.v6({ type: "pane_read", pane })).text as string;

/** The marker nested in itself `depth` times, split at a different place each time. */
function nested(depth: number): string {
  let t = END;
  for (let i = 0; i < depth; i++) {
    const cut = 1 + (i % (END.length - 1));
    t = END.slice(0, cut) + t + END.slice(cut);
  }
  return t;
}

/** Hostile texts and what the program must get between the brackets. */
const CASES: [string, string, string][] = [
  ["the issue's reproduction", "A\x1b[20\x1b[201~1~;touch /tmp/P\rB", "A;touch /tmp/P\rB"],
  ["a marker nested 5 deep, split at every place", `x${nested(5)}y`, "xy"],
  ["the 8-bit CSI form, alone and mixed", "a\u009b201~b\u009b20\x1b[201~1~c\x1b[20\u009b201~1~d", "abcd"],
  ["markers back to back and at both ends", `${END}${END}q${END}\x1b[2${END}01~`, "q"],
  ["other escapes are kept", "red \x1b[31mtext\x1b[0m and \x1b[200~ a start", "red \x1b[31mtext\x1b[0m and \x1b[200~ a start"],
];

beforeAll(async () => {
  ({ s } = await standInAgentServer());
});
afterAll(() => s.stop());

test("the filter leaves no marker, in linear time, and keeps everything else", () => {
  for (const [, text, want] of CASES) expect(withoutPasteEnd(text)).toBe(want);
  // 100,000 levels deep: one pass with a stack, not one pass per level.
  const deep = `<${"\x1b[20".repeat(100_000)}${END}${"1~".repeat(100_000)}>`;
  const began = performance.now();
  expect(withoutPasteEnd(deep)).toBe("<>");
  expect(performance.now() - began).toBeLessThan(5000);
  const plain = "no escapes here ✓ 😀".repeat(1000);
  expect(withoutPasteEnd(plain)).toBe(plain);
});

/** A tab running the raw reader; with `agent`, also a shell beside it, and the reader reports as an agent. */
async function readerTab(name: string, agent = false): Promise<{ reader: number; caller: number; out: string }> {
  const out = join(s.root, `${name}.bytes`);
  const caller = (await s.v6({ type: "tab_new", cwd: s.root, name, focus: false })).pane;
  const reader = (await s.v6({ type: "split", pane: caller, right: true, cwd: s.root, command: ["python3", READER, out], focus: false, ...(agent ? {} : { env: { STANDIN_WS: "" } }) })).pane;
  await waitFor(`the raw reader in pane ${reader}`, async () => (await screen(reader)).includes("raw reader ready"));
  if (agent) await waitFor("the reader to be an agent", async () => (await s.v6({ type: "dashboard" })).agents.some((a) => a.pane === reader));
  return { reader, caller, out };
}

const received = (out: string) => (existsSync(out) ? readFileSync(out, "latin1") : "");
/** What the reader got, as text, once it holds `want` bytes. */
async function receive(out: string, want: string): Promise<string> {
  const bytes = Buffer.from(want, "utf8").toString("latin1");
  await waitFor(`${JSON.stringify(want)} at the reader`, () => received(out).length >= bytes.length, 15_000);
  return Buffer.from(received(out), "latin1").toString("utf8");
}

describe("every sender delivers one whole paste", () => {
  test("pane_send", async () => {
    const { reader, out } = await readerTab("send");
    let expected = "";
    for (const [, text, want] of CASES) {
      expect(await s.v6({ type: "pane_send", pane: reader, text })).toMatchObject({ type: "ok" });
      expected += START + want + END;
      expect(await receive(out, expected)).toBe(expected);
    }
    // A marker split across two sends: each is its own paste and ends only at its own marker.
    for (const text of ["A\x1b[20", "1~;touch /tmp/P\rB"]) expect(await s.v6({ type: "pane_send", pane: reader, text })).toMatchObject({ type: "ok" });
    expected += `${START}A\x1b[20${END}${START}1~;touch /tmp/P\rB${END}`;
    expect(await receive(out, expected)).toBe(expected);
  }, 60_000);

  test("agent_send", async () => {
    const { caller, out } = await readerTab("agent", true);
    let expected = "";
    for (const [, text, want] of CASES) {
      expect((await s.v6({ type: "agent_send", pane: caller, text })).type).toBe("pane");
      expected += START + want + END + "\r";
      expect(await receive(out, expected)).toBe(expected);
    }
  }, 60_000);

  test("the tmux shim's paste-buffer", async () => {
    const { reader, out } = await readerTab("shim");
    const r = await s.run(["tmux-shim", "--", "sh", "-c", 'printf "%s\\n" "$PATH" "$TMUX"'], { env: { WS_PANE_ID: String(reader), WS_SOCKET: s.sock } });
    expect(r.code).toBe(0);
    const [path, tmuxVar] = r.stdout.split("\n");
    const env = { ...s.env, PATH: path!, TMUX: tmuxVar!, TMUX_PANE: `%${reader}`, WS_PANE_ID: String(reader), WS_SOCKET: s.sock };
    const tmux = async (args: string[]) => {
      const p = Bun.spawn([Bun.which("tmux", { PATH: path! })!, ...args], { env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
      const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: "" });
    };
    let expected = "";
    for (const [, text, want] of CASES) {
      await tmux(["set-buffer", "-b", "hostile", "--", text]);
      await tmux(["paste-buffer", "-p", "-b", "hostile", "-t", `%${reader}`]);
      expected += START + want + END;
      expect(await receive(out, expected)).toBe(expected);
    }
  }, 60_000);
});

test("bash with bracketed paste runs nothing of the issue's paste", async () => {
  const flag = join(s.root, "PWNED");
  const pane = (await s.v6({ type: "tab_new", cwd: s.root, name: "bash", command: ["bash", "-i"], focus: false })).pane;
  await waitFor("bash's prompt", async () => /[$#] *$/m.test(await screen(pane)), 10_000).catch(async (e) => {
    throw new Error(`${e.message}; screen: ${JSON.stringify(await screen(pane))}`);
  });
  // readline turns bracketed paste on as it starts reading a line, before it draws the prompt.
  expect(await s.v6({ type: "pane_send", pane, text: `A\x1b[20\x1b[201~1~;touch ${flag}\rB` })).toMatchObject({ type: "ok" });
  // readline shows a paste once it has read its end marker: only then is C-c safe to send (a C-c
  // before it flushes the terminal's unread input, the end marker with it, and readline waits on).
  await waitFor("the paste on bash's line", async () => (await screen(pane)).includes("PWNED"), 10_000);
  // Throw the pasted line away, then run a command: had the paste ended early, the touch would have run before it.
  expect(await s.v6({ type: "pane_send_keys", pane, keys: ["C-c"] })).toMatchObject({ type: "ok" });
  // readline has thrown the line away once it draws a fresh prompt (on a loaded machine, typing
  // earlier could land in the old line).
  await waitFor("bash's prompt after C-c", async () => /\^C\n.*[$#] *$/.test(await screen(pane)), 10_000).catch(async (e) => {
    throw new Error(`${e.message}; screen: ${JSON.stringify(await screen(pane))}`);
  });
  expect(await s.v6({ type: "pane_send", pane, text: "echo synced-$((6*7))", enter: true })).toMatchObject({ type: "ok" });
  await waitFor("the command after the paste", async () => (await screen(pane)).includes("synced-42"));
  expect(existsSync(flag)).toBe(false);
}, 30_000);
