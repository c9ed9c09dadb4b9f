// Full-screen programs inside a ws pane look as they do in a bare terminal of
// the pane's size; a flooding pane does not delay keys for another.
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor, wsArgv } from "./harness";
import type { Replies } from "./replies";
import { RawAttach } from "./raw-attach";
import { serverWithTmux } from "./tmux-driver";

const WS = wsArgv().join(" ");
const { s: server, tmux } = serverWithTmux();
let file: string;

beforeAll(async () => {
  file = join(server.root, "sample.txt");
  const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1}: ${"abcdefghij".repeat((i % 9) + 1)} 中文 end`);
  writeFileSync(file, lines.join("\n") + "\n");
  await tmux.open("ws", `${WS} attach; sleep 3600`, 120, 40);
  await tmux.waitFor("ws", "[main] tab 1/1");
});
const trim = (lines: string[]) => lines.map((l) => l.trimEnd());

/** The ws pane's area (rows 1..38 of the 40-row client) beside the bare window's 38 rows. */
async function sameScreens(bare: string, what: string, normalise: (l: string[]) => string[] = (l) => l) {
  let last = { ws: [] as string[], bare: [] as string[] };
  try {
    await waitFor(what, async () => {
      const w = normalise(trim((await tmux.lines("ws")).slice(1, 39)));
      const b = normalise(trim((await tmux.lines(bare)).slice(0, 38)));
      last = { ws: w, bare: b };
      return w.join("\n") === b.join("\n") && w.some((l) => l.length > 0);
    }, 10000);
  } catch (e) {
    const diff = last.ws.map((l, i) => (l === last.bare[i] ? null : `row ${i}: ws ${JSON.stringify(l)} | bare ${JSON.stringify(last.bare[i])}`)).filter(Boolean);
    throw new Error(`${(e as Error).message}\n${diff.slice(0, 10).join("\n")}`);
  }
}

/** htop's meters (CPU bars, task counts, load, uptime) change from moment to moment: compare
 * their shape, with what is between brackets and every digit blanked out. */
const meterless = (lines: string[]) => lines.map((l) => l.replace(/\[[^\]]*\]/g, "[]").replace(/\d/g, "0"));

async function runIn(pane: number, command: string) {
  await server.request({ v: 2, type: "pane_send", pane, text: command, enter: true });
}

describe("full-screen programs match a bare terminal", () => {
  test("less", async () => {
    await tmux.open("bare-less", `less ${file}`, 120, 38);
    await runIn(1, `less ${file}`);
    await sameScreens("bare-less", "less screens to match");
    for (const name of ["bare-less", "ws"]) await tmux.keys(name, "Space");
    await sameScreens("bare-less", "less screens to match after a page down");
    for (const name of ["bare-less", "ws"]) await tmux.text(name, "/line 250");
    for (const name of ["bare-less", "ws"]) await tmux.keys(name, "Enter");
    await sameScreens("bare-less", "less screens to match after a search");
    await tmux.keys("ws", "q");
    await tmux.waitFor("ws", (s) => !s.includes("line 2"));
  });

  test("vim", async () => {
    const vim = `vim -u NONE -i NONE -N -n ${file}`;
    await tmux.open("bare-vim", vim, 120, 38);
    await runIn(1, vim);
    await sameScreens("bare-vim", "vim screens to match");
    for (const name of ["bare-vim", "ws"]) await tmux.text(name, "50Gdd");
    await sameScreens("bare-vim", "vim screens to match after an edit");
    for (const name of ["bare-vim", "ws"]) await tmux.text(name, ":set number\r");
    await sameScreens("bare-vim", "vim screens to match with line numbers");
    await tmux.text("ws", ":q!\r");
    // Back at the shell: the alternate screen is gone with all of the file.
    await tmux.waitFor("ws", (s) => !s.includes("line 1"));
  });
});

describe.if(Bun.which("htop") !== null)("htop (installed by .ci/run)", () => {
  test("htop matches a bare terminal, meters aside", async () => {
    // Only user nobody's processes (none): the process list is the same in both terminals.
    const htop = `HOME=${server.root} htop -C -u nobody -d 100`;
    await tmux.open("bare-htop", htop, 120, 38);
    await runIn(1, htop);
    await sameScreens("bare-htop", "htop screens to match", meterless);
    await tmux.keys("ws", "F10");
    await tmux.waitFor("ws", (s) => !s.includes("F1Help"));
  });
});

describe("a flooding pane", () => {
  test("does not delay typing or prefix keys in another pane", async () => {
    await tmux.keys("ws", "C-Space", "%");
    await tmux.waitFor("ws", /─ 2: bash/);
    await runIn(1, "yes flood-flood-flood");
    await tmux.waitFor("ws", "flood-flood");
    await server.request({ v: 5, type: "pane_focus", pane: 2 });
    await tmux.waitFor("ws", "pane 2 ");
    // Each key echoes and prefix z zooms while the flood still runs (its speed is measured in
    // bench/flood-echo.ts, not here): a server that let the flood starve the quiet pane's input
    // would miss these deadlines.
    let typed = "";
    for (const ch of "qwxyz") {
      await tmux.text("ws", ch);
      typed += ch;
      // Pane 2 is the right half; its prompt line ends with what was typed so far.
      await waitFor(`typed ${typed} to echo`, async () => (await tmux.lines("ws")).some((l) => l.slice(61).trimEnd().endsWith(typed)), 10000);
    }
    await tmux.keys("ws", "C-Space", "z");
    await tmux.waitFor("ws", "(zoomed)", 10000);
    expect((await server.call({ type: "pane_info", pane: 1 })).foreground?.argv[0]).toBe("yes");
    await server.request({ v: 2, type: "pane_send", pane: 1, text: "\x03" });
  });
});

describe("the server beside a flood", () => {
  test("echoes each key typed into a quiet pane while another floods (attach stream)", async () => {
    const srv = await new TestServer().start();
    try {
      let got = "";
      const sock = await RawAttach.open(srv.sock, { v: 1, type: "attach", cols: 120, rows: 40 });
      sock.onText = (t) => void (got += t);
      await waitFor("first frame", () => got.includes("[main]"));
      const split = await srv.request<Replies["split"]>({ v: 1, type: "split", pane: 1, right: true, cwd: srv.root, command: [], focus: true });
      await srv.waitScreen(split.pane, /[$#] $/m);
      await srv.request({ v: 2, type: "pane_send", pane: 1, text: "yes flood-$((6*7))", enter: true });
      await waitFor("the flood on screen", () => got.includes("flood-42"));
      // Every key echoes on the attach stream while the flood runs; how fast is bench/flood-echo.ts's.
      for (const ch of "qwertyuipzxcvbn") {
        got = "";
        sock.send({ Key: { code: { Char: ch }, modifiers: "", kind: "Press", state: "" } });
        await waitFor(`echo of ${ch}`, () => got.includes(ch), 10000, 1);
      }
      got = "";
      await waitFor("the flood still running", () => got.includes("flood-42"));
      sock.close();
    } finally {
      await srv.stop();
    }
  });
});
