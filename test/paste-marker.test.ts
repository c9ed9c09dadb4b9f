// A paste can't end early. A program with bracketed paste on takes what follows the first ESC[201~
// as keystrokes, so pasted text must hold none, also none that removing one would form (`ESC[20`
// ESC[201~ `1~`), nor one that the pane's tty line discipline forms by consuming a character
// (`ESC[20^S1~` with IXON). A bracketed paste carries no control character but tab, CR and LF.
// A raw reader in a real pane records the exact bytes each sender delivers: pane_send,
// agent_send, an attached client's paste and the tmux shim's paste-buffer; and a real interactive
// bash with bracketed paste (readline's default) shows the consequence: nothing runs, with each
// character a tty can consume spliced into the end marker.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TestServer, standInAgentServer, waitFor } from "./harness";
import { pasteText } from "../src/model/paste";
import { RawAttach } from "./raw-attach";

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
  ["a nested end marker", "A\x1b[20\x1b[201~1~;touch /tmp/P\rB", "A[20[201~1~;touch /tmp/P\rB"],
  ["a marker nested 5 deep, split at every place", `x${nested(5)}y`, `x${nested(5).replaceAll("\x1b", "")}y`],
  ["the 8-bit CSI form, alone and mixed", "a\u009b201~b\u009b20\x1b[201~1~c", "a201~b20[201~1~c"],
  ["^S and ^Q that IXON would take out", "A\x1b[20\x13\x111~;touch /tmp/IXON\rB", "A[201~;touch /tmp/IXON\rB"],
  ["every C0 but tab, CR and LF, DEL and every C1", `<${String.fromCharCode(...Array.from({ length: 0x1f }, (_, i) => 1 + i), 0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i))}>`, "<\t\n\r>"],
  ["NUL", "a\0b", "ab"],
  ["other escapes lose their ESC, text stays", "red \x1b[31mtext\x1b[0m and \x1b[200~ a start ✓ 😀", "red [31mtext[0m and [200~ a start ✓ 😀"],
];

beforeAll(async () => {
  ({ s } = await standInAgentServer());
});
afterAll(() => s.stop());

test("the filter leaves no control but tab, CR and LF, and keeps everything else", () => {
  for (const [, text, want] of CASES) expect(pasteText(text)).toBe(want);
  const deep = `<${"\x1b[20".repeat(100_000)}${END}${"1~".repeat(100_000)}>`;
  expect(pasteText(deep)).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/);
  const plain = "no escapes here ✓ 😀\tend\r\n".repeat(1000);
  expect(pasteText(plain)).toBe(plain);
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
    expected += `${START}A[20${END}${START}1~;touch /tmp/P\rB${END}`;
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

  test("an attached client's paste", async () => {
    const { reader, out } = await readerTab("attached");
    expect(await s.v6({ type: "pane_focus", pane: reader })).toMatchObject({ type: "ok" });
    const client = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 100, rows: 30 });
    try {
      await client.firstFrame();
      let expected = "";
      for (const [, text, want] of CASES) {
        client.send({ Paste: text });
        expected += START + want + END;
        expect(await receive(out, expected)).toBe(expected);
      }
    } finally {
      client.close();
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
      if (text.includes("\0")) continue; // an argv can't carry one
      await tmux(["set-buffer", "-b", "hostile", "--", text]);
      await tmux(["paste-buffer", "-p", "-b", "hostile", "-t", `%${reader}`]);
      expected += START + want.replaceAll("\n", "\r") + END; // paste-buffer without -r turns LF into CR, as tmux's does
      expect(await receive(out, expected)).toBe(expected);
    }
    // Two shim calls a case, each a ws process: seconds apiece on a loaded 2-core box.
  }, 180_000);
});

/** The characters a tty's line discipline can consume (Linux's defaults), each by its termios name. */
const CONSUMED: [string, string][] = [
  ["VSTART", "\x11"],
  ["VSTOP", "\x13"],
  ["VLNEXT", "\x16"],
  ["VINTR", "\x03"],
  ["VQUIT", "\x1c"],
  ["VSUSP", "\x1a"],
  ["VEOF", "\x04"],
  ["VWERASE", "\x17"],
  ["VREPRINT", "\x12"],
  ["VDISCARD", "\x0f"],
  ["VKILL", "\x15"],
  ["VERASE", "\x7f"],
];

/** `ESC[201~` with `c` spliced in at every place, each followed by a command that makes `flag`. */
function spliced(c: string, flag: string): string {
  let t = "A";
  for (let at = 1; at < END.length; at++) t += `${END.slice(0, at)}${c}${END.slice(at)};touch ${flag}${at}\r`;
  return `${t}\x1b[20${c}${c}1~;touch ${flag}0\rB`;
}

test("an interactive bash runs nothing when a character its tty consumes is spliced into the end marker", async () => {
  const pane = (await s.v6({ type: "tab_new", cwd: s.root, name: "bash", command: ["bash", "--norc", "-i"], focus: false })).pane;
  const prompt = async (what: string, re: RegExp) =>
    waitFor(what, async () => re.test(await screen(pane)), 10_000).catch(async (e) => {
      throw new Error(`${e.message}; screen: ${JSON.stringify(await screen(pane))}`);
    });
  await prompt("bash's prompt", /[$#] *$/m);
  const flags: string[] = [];
  for (const [name, c] of CONSUMED) {
    const flag = `PWNED-${name}-`;
    flags.push(flag);
    // readline turns bracketed paste on as it starts reading a line, before it draws the prompt.
    expect(await s.v6({ type: "pane_send", pane, text: spliced(c, flag) })).toMatchObject({ type: "ok" });
    // readline shows a paste once it has read its end marker: only then is C-c safe to send (a C-c
    // before it flushes the terminal's unread input, the end marker with it, and readline waits on).
    await prompt(`the ${name} paste on bash's line`, new RegExp(`touch ${flag}0\\s*\\n?B`));
    // Throw the pasted lines away; readline has once it draws a fresh prompt.
    expect(await s.v6({ type: "pane_send_keys", pane, keys: ["C-c"] })).toMatchObject({ type: "ok" });
    await prompt(`bash's prompt after the ${name} paste`, /\^C\n.*[$#] *$/);
  }
  // Had any paste ended early, its touch would have run before this command.
  expect(await s.v6({ type: "pane_send", pane, text: "echo synced-$((6*7))", enter: true })).toMatchObject({ type: "ok" });
  await waitFor("the command after the pastes", async () => (await screen(pane)).includes("synced-42"));
  const made = readdirSync(s.root).filter((f) => f.startsWith("PWNED"));
  expect(made).toEqual([]);
}, 60_000);
