// Codex and Gemini CLI (the real npm packages, installed into a temporary prefix; skipped with a
// message where they can't be) in a ws pane and in a tmux 3.3a pane of the same size and
// environment, so that what each shows in ws can be held to tmux's: their first screens (offline:
// an API key that is never sent, so each reaches its prompt with no network), then typed text,
// Shift+Enter, a bracketed paste and
// Esc Esc, typed into ws through `ws attach` in tmux (so through ws's outer-key decoding) and into
// the tmux pane directly (`extended-keys always`), compared screen by screen. Each screen is
// compared as `pane read` gives it and as the user's terminal shows it (the ws window's capture).
// The time each takes to its first screen in both is printed (docs/fidelity.md has the figures).
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { quoteSh } from "../src/shell-quote";
import { waitFor, wsArgv } from "./harness";
import { npmAgent } from "./npm-agent";
import { serverWithTmux } from "./tmux-driver";

const { s, tmux } = serverWithTmux();

const norm = (t: string) =>
  t
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trimEnd();

let tmuxReady = false;
let wsWindow = false;
/** tmux with extended keys always on (set before any pane of the test is made), and `ws attach` in
 * its window "wsa" (120×40, ws's tab bar and status line around a 120×38 pane). */
async function setUp(): Promise<void> {
  if (!tmuxReady) {
    await tmux.tmux("new-session", "-d", "-s", "base", "sleep 3600", ";", "set", "-g", "extended-keys", "always");
    tmuxReady = true;
  }
  if (!wsWindow) {
    await tmux.open("wsa", `${wsArgv().join(" ")} attach; sleep 3600`, 120, 40);
    await tmux.waitFor("wsa", /\[main\] tab \d+\/\d+/);
    wsWindow = true;
  }
}

interface Cli {
  name: string;
  /** The environment each run gets (HOME made by `home`). */
  env: (home: string) => string[];
  args: string[];
  /** Writes what the CLI would have after a first run: the offline key, trust, choices. */
  home: (home: string, proj: string, bin: string) => void;
  /** On the first screen when it is ready for typing. */
  ready: string;
  /** Esc Esc clears the prompt. */
  escClears: boolean;
}

const CLIS: Record<string, Cli> = {
  codex: {
    name: "codex",
    env: (home) => [`HOME=${home}`],
    // --no-daemon: no app-server shared with other Codex processes on the machine.
    args: ["--no-daemon"],
    home: (home, _proj, bin) => {
      mkdirSync(home, { recursive: true });
      const login = Bun.spawnSync([bin, "login", "--with-api-key"], { stdin: new Blob(["sk-offline-never-sent\n"]), env: { ...process.env, HOME: home }, stdout: "ignore", stderr: "ignore" });
      if (login.exitCode !== 0) throw new Error("codex login --with-api-key failed");
    },
    ready: "› Ask Codex to do anything",
    escClears: false,
  },
  gemini: {
    name: "gemini",
    env: (home) => [`HOME=${home}`, "GEMINI_API_KEY=offline-never-sent"],
    args: [],
    home: (home, proj) => {
      mkdirSync(join(home, ".gemini"), { recursive: true });
      writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
      writeFileSync(join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [proj]: "TRUST_FOLDER" }));
    },
    ready: "Type your message",
    escClears: true,
  },
};

const PKG: Record<string, [string, string]> = { codex: ["@openai/codex", "ws-test-codex"], gemini: ["@google/gemini-cli", "ws-test-gemini"] };

/** After `step`, once both have done it: ws's screen (`pane read`), what the user sees of ws (the
 * pane's rows of the ws window; row 0 is the tab bar) and tmux's pane agree. The programs redraw
 * on timers of their own (Codex hides its tips while typing and brings them back), so the three
 * are read together until they agree, for up to 30 s; the last reading is what is checked. */
async function compare(cli: Cli, step: string, pane: number, rows: number, done: (t: string) => boolean): Promise<void> {
  await waitFor(`${cli.name} in ws: ${step}`, async () => done(await s.screen(pane)), 30_000, 100);
  await waitFor(`${cli.name} in tmux: ${step}`, async () => done(await tmux.capture(cli.name)), 30_000, 100);
  const read = async () => ({
    screen: norm(await s.screen(pane)),
    seen: norm((await tmux.lines("wsa")).slice(1, 1 + rows).join("\n")),
    tmux: norm(await tmux.capture(cli.name)),
  });
  let last = await read();
  try {
    await waitFor(`${cli.name}: ws and tmux to agree after ${step}`, async () => {
      last = await read();
      return last.screen === last.tmux && last.seen === last.tmux;
    }, 30_000, 200);
  } catch {}
  expect({ step, screen: last.screen }).toEqual({ step, screen: last.tmux });
  expect({ step, seen: last.seen }).toEqual({ step, seen: last.tmux });
}

describe("agent CLIs in ws and in tmux", () => {
  test("Gemini's start-up probe is answered in ws as in tmux: its DA1 ends the wait, not the 1 s timeout", async () => {
    const probe = [process.execPath, join(import.meta.dir, "fixtures", "startup-probe.ts")];
    const pane = Number((await s.ok(["tab", "new", "--cwd", s.root, "--", ...probe])).trim());
    const inWs = (await s.waitScreen(pane, /PROBE \d+ .*mok=\d/, 20_000)).match(/PROBE .*/)![0];
    await tmux.open("probe", probe.map(quoteSh).join(" "), 80, 10);
    const inTmux = (await tmux.waitFor("probe", /PROBE \d+ .*mok=\d/, 20_000)).match(/PROBE .*/)![0];
    console.log(`Gemini's probe: ws ${inWs}; tmux 3.3a ${inTmux}`);
    expect(inWs).toContain("da1=1");
    expect(inTmux).toContain("da1=1");
    // ws answers kitty's query too (the pane's own flags), so Gemini turns kitty keys on there,
    // and OSC 11 (the person's terminal's background, or ws's default), so it picks its theme.
    expect(inWs).toContain("kitty=1");
    expect(inWs).toContain("osc11=1");
  }, 60_000);

  for (const cli of Object.values(CLIS)) {
    test(`${cli.name}: first screen, text, Shift+Enter, a paste and Esc Esc as in tmux`, async () => {
      const [pkg, prefix] = PKG[cli.name]!;
      const agent = npmAgent(pkg, cli.name, prefix);
      const why = await agent.install();
      if (why) return console.warn(`skipped: ${why}`);
      await setUp();
      const proj = join(s.root, `${cli.name}-proj`);
      mkdirSync(proj, { recursive: true });
      const homes = { ws: join(s.root, `${cli.name}-home-ws`), tmux: join(s.root, `${cli.name}-home-tmux`) };
      cli.home(homes.ws, proj, agent.bin);
      cli.home(homes.tmux, proj, agent.bin);
      // The same environment in both: TERM and COLORTERM as a modern terminal's, not each multiplexer's;
      // no CI (a CI job sets it, and Gemini then takes its terminal for a non-interactive one).
      const argv = (home: string) => ["env", "-u", "CI", "TERM=xterm-256color", "COLORTERM=truecolor", ...cli.env(home), agent.bin, ...cli.args];

      const t0 = performance.now();
      const pane = Number((await s.ok(["tab", "new", "--cwd", proj, "--", ...argv(homes.ws)])).trim());
      expect((await s.request({ v: 5, type: "pane_focus", pane })).type).toBe("ok");
      await s.waitScreen(pane, cli.ready, 120_000);
      const wsMs = performance.now() - t0;
      const info = await s.request<{ cols: number; rows: number }>({ v: 6, type: "pane_info", pane });
      const { cols, rows } = info;

      const t1 = performance.now();
      await tmux.open(cli.name, `cd ${quoteSh(proj)} && exec ${argv(homes.tmux).map(quoteSh).join(" ")}`, cols, rows);
      await tmux.waitFor(cli.name, cli.ready, 120_000);
      const tmuxMs = performance.now() - t1;
      console.log(`${cli.name}: first screen in ${Math.round(wsMs)} ms in ws, ${Math.round(tmuxMs)} ms in tmux 3.3a (${cols}×${rows})`);

      const has = (re: RegExp | string) => (t: string) => (typeof re === "string" ? t.includes(re) : re.test(t));
      await compare(cli, "first screen", pane, rows, has(cli.ready));

      for (const w of ["wsa", cli.name]) await tmux.text(w, "first line");
      await compare(cli, "typed text", pane, rows, has("first line"));
      for (const w of ["wsa", cli.name]) await tmux.keys(w, "S-Enter");
      for (const w of ["wsa", cli.name]) await tmux.text(w, "second line");
      await compare(cli, "Shift+Enter: a new line, not a submit", pane, rows, has(/first line\s*\n[^\n]*second line/));

      await tmux.tmux("set-buffer", "-b", "p", "pasted words");
      for (const w of ["wsa", cli.name]) await tmux.tmux("paste-buffer", "-p", "-b", "p", "-t", `=${w}:`);
      await compare(cli, "a bracketed paste", pane, rows, has("second linepasted words"));

      for (const w of ["wsa", cli.name]) await tmux.keys(w, "Escape", "Escape");
      await compare(cli, "Esc Esc", pane, rows, (t) => !cli.escClears || !t.includes("first line"));
    }, 600_000);
  }
});
