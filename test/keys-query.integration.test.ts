// Query-first keyboard protocol detection: `ws attach` in a PTY that stands for
// the user's terminal, answering ws's questions as a kitty-protocol terminal does (CSI ? flags u,
// then DA1), as one without it does (DA1 only) or not at all, with the server driving the terminal
// and with the client pumping it (WS_ATTACH_DIRECT=0); and in tmux 3.3a, which answers DA1 only,
// through `script`, which records what ws wrote. Each turns on kitty keys or modifyOtherKeys 2 by
// the answer, never both, undoes exactly that on detach, and draws its first frame before the answer.
// The answers never reach the focused pane (a raw reader, test/fixtures/key-reader.ts).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor, wsArgv } from "./harness";
import { serverWithTmux } from "./tmux-driver";

// Long enough that a loaded machine's first frame comes well before the fallback, so a test that
// answers late (after the first frame) is still answered in time.
const { s, tmux } = serverWithTmux({ env: { WS_KEYS_PROBE_MS: "8000" } });

const READER = join(import.meta.dir, "fixtures", "key-reader.ts");
let readers = 0;

/** A focused tab running the raw reader; its log. */
async function reader(): Promise<{ pane: number; got: () => string }> {
  const log = join(s.root, `probe-${++readers}.log`);
  const pane = Number((await s.ok(["tab", "new", "--cwd", s.root, "--", process.execPath, READER, log])).trim());
  await s.waitScreen(pane, "READY");
  expect((await s.request({ v: 5, type: "pane_focus", pane })).type).toBe("ok");
  return { pane, got: () => readFileSync(log, "latin1") };
}

type Answer = "kitty" | "da1" | "none";
const KITTY_ANSWER = "\x1b[?0u";
const DA1_ANSWER = "\x1b[?62;22c";

/** `ws attach` in a PTY that answers `answer` once the first frame is drawn; detached at the end. */
async function attachIn(answer: Answer, env: Record<string, string> = {}) {
  let screen = "";
  let asked = -1;
  const dec = new TextDecoder();
  const proc = Bun.spawn([...wsArgv(), "attach"], {
    env: { ...s.env, ...env },
    terminal: { cols: 100, rows: 30, data: (_t, d) => void (screen += dec.decode(d, { stream: true })) },
  });
  const t = {
    proc,
    screen: () => screen,
    /** Where the first frame's status line is in what the terminal got. */
    firstFrame: -1,
    asked: () => asked,
    async detach(): Promise<string> {
      proc.terminal!.write("\x00d"); // C-Space d
      expect(await proc.exited).toBe(0);
      const leave = screen.lastIndexOf("\x1b[?1049l");
      expect(leave).toBeGreaterThan(0);
      return screen.slice(screen.lastIndexOf("\x1b[?1004l") - 40, leave);
    },
  };
  await waitFor("the first frame", () => screen.includes("[main]"));
  t.firstFrame = screen.indexOf("[main]");
  await waitFor("the keyboard query", () => screen.includes("\x1b[?u\x1b[c"));
  asked = screen.indexOf("\x1b[?u\x1b[c");
  if (answer === "kitty") proc.terminal!.write(KITTY_ANSWER + DA1_ANSWER);
  else if (answer === "da1") proc.terminal!.write(DA1_ANSWER);
  return t;
}

const kitty = "\x1b[>1u";
const mok = "\x1b[>4;2m";

describe("ws attach asks the terminal which keyboard protocol it has", () => {
  for (const mode of ["the server drives the terminal", "the client pumps it"] as const) {
    const env: Record<string, string> = mode === "the client pumps it" ? { WS_ATTACH_DIRECT: "0" } : {};

    test(`a terminal answering the kitty query gets kitty keys only, popped on detach (${mode})`, async () => {
      const r = await reader();
      const t = await attachIn("kitty", env);
      try {
        await waitFor("kitty keys turned on", () => t.screen().includes(kitty));
        // Asked before the first frame was drawn, turned on after it: the frame did not wait.
        expect(t.asked()).toBeLessThan(t.firstFrame);
        expect(t.screen().indexOf(kitty)).toBeGreaterThan(t.firstFrame);
        expect(t.screen()).not.toContain(mok);
        // A key in kitty's form reaches the pane; the answers never did.
        t.proc.terminal!.write("\x1b[13;2u");
        await waitFor("S-Enter in the reader", () => r.got() !== "");
        expect(r.got()).toBe("1b 5b 31 33 3b 32 75 ");
        const tail = await t.detach();
        expect(tail).toContain("\x1b[<u");
        expect(tail).not.toContain("\x1b[>4m");
      } finally {
        t.proc.kill();
      }
    }, 60_000);

    test(`a terminal answering DA1 only gets modifyOtherKeys 2 only, reset on detach (${mode})`, async () => {
      const r = await reader();
      const t = await attachIn("da1", env);
      try {
        await waitFor("modifyOtherKeys turned on", () => t.screen().includes(mok));
        expect(t.screen().indexOf(mok)).toBeGreaterThan(t.firstFrame);
        expect(t.screen()).not.toContain(kitty);
        t.proc.terminal!.write("\x1b[27;2;13~"); // S-Enter in modifyOtherKeys' form
        await waitFor("S-Enter in the reader", () => r.got() !== "");
        expect(r.got()).toBe("1b 5b 31 33 3b 32 75 ");
        const tail = await t.detach();
        expect(tail).toContain("\x1b[>4m");
        expect(tail).not.toContain("\x1b[<u");
      } finally {
        t.proc.kill();
      }
    }, 60_000);
  }

  test("a terminal answering nothing gets modifyOtherKeys 2 after the bounded wait", async () => {
    const r = await reader();
    const started = Date.now();
    const t = await attachIn("none", { WS_ATTACH_DIRECT: "0", WS_KEYS_PROBE_MS: "300" });
    try {
      await waitFor("modifyOtherKeys turned on", () => t.screen().includes(mok));
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(t.screen()).not.toContain(kitty);
      expect(r.got()).toBe("");
      const tail = await t.detach();
      expect(tail).toContain("\x1b[>4m");
      expect(tail).not.toContain("\x1b[<u");
    } finally {
      t.proc.kill();
    }
  }, 60_000);

  test("in tmux 3.3a (DA1, no kitty answer) ws turns on modifyOtherKeys 2 only, and S-Enter reaches the pane", async () => {
    const r = await reader();
    const log = join(s.root, "script.log");
    // script(1) between tmux and ws attach records every byte ws writes to its terminal.
    const cmd = `script -qfc '${wsArgv().join(" ")} attach' ${log}; sleep 3600`;
    await tmux.tmux("new-session", "-d", "-s", "q", "-x", "100", "-y", "30", cmd, ";", "set", "-g", "extended-keys", "on");
    await tmux.tmux("set-option", "-t", "=q:", "status", "off");
    await tmux.waitFor("q", /\[main\] tab \d+\/\d+/);
    const written = () => readFileSync(log, "latin1");
    await waitFor("modifyOtherKeys turned on", () => written().includes(mok), 10_000);
    expect(written()).toContain("\x1b[?u\x1b[c");
    expect(written()).not.toContain(kitty);
    await tmux.waitFor("q", "READY");
    await tmux.keys("q", "S-Enter");
    await waitFor("S-Enter in the reader", () => r.got() !== "");
    expect(r.got()).toBe("1b 5b 31 33 3b 32 75 ");
    await tmux.keys("q", "C-Space", "d");
    await waitFor("the detach written", () => written().includes("\x1b[?1049l"), 10_000);
    const tail = written().slice(written().lastIndexOf("\x1b[?1004l") - 40);
    expect(tail).toContain("\x1b[>4m");
    expect(tail).not.toContain("\x1b[<u");
  }, 60_000);
});
