// Claude Code itself (the npm package, installed into a temporary prefix; skipped with a message
// where it can't be installed) in a ws pane, typed into through `ws attach` in tmux with the outer
// keys in CSI u form: Shift+Enter inserts a new line rather than sending the prompt, and Esc Esc
// (one burst) clears it, as under tmux with extended-keys. Bedrock mode
// with its auth skipped: its first screens need no network. And the light theme, chosen in its
// first-run picker, after a detach and re-attach: the user's terminal (a replay of the frames into
// a terminal, test/outer-terminal.ts) shows the same cells as before the detach, with no stray
// background left in the last column (the "grey cells at column 160" once seen there).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor, wsArgv } from "./harness";
import { OuterTerminal } from "./outer-terminal";
import { RawAttach } from "./raw-attach";
import { serverWithTmux } from "./tmux-driver";

/** Reused between runs: installing downloads some 250 MB. */
const PREFIX = join(tmpdir(), "ws-test-claude-code");
const CLAUDE = join(PREFIX, "node_modules", ".bin", "claude");

async function installClaude(): Promise<string | undefined> {
  if (existsSync(CLAUDE)) return undefined;
  const npm = Bun.which("npm");
  if (!npm) return "npm is not installed";
  mkdirSync(PREFIX, { recursive: true });
  const p = Bun.spawn([npm, "install", "--prefix", PREFIX, "--no-audit", "--no-fund", "@anthropic-ai/claude-code"], { stdout: "ignore", stderr: "pipe" });
  const timer = setTimeout(() => p.kill(), 240_000);
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  if (code !== 0 || !existsSync(CLAUDE)) return `npm install @anthropic-ai/claude-code failed (${code}): ${err.trim().split("\n").slice(-2).join(" ")}`;
  const v = Bun.spawnSync([CLAUDE, "--version"], { stdout: "pipe", stderr: "pipe" });
  return v.exitCode === 0 ? undefined : "the installed claude does not run here";
}

const { s, tmux } = serverWithTmux();

describe("Claude Code in ws", () => {
  test("Shift+Enter inserts a new line, not a submit; Esc Esc clears the prompt", async () => {
    const why = await installClaude();
    if (why) return console.warn(`skipped: ${why}`);
    const proj = join(s.root, "proj");
    mkdirSync(proj, { recursive: true });
    // Past the first-run theme picker and the folder-trust question, to the prompt.
    writeFileSync(join(s.root, ".claude.json"), JSON.stringify({ hasCompletedOnboarding: true, theme: "dark", numStartups: 5, projects: { [proj]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } } }));
    const env = ["CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_SKIP_BEDROCK_AUTH=1", "AWS_REGION=us-east-1", "DISABLE_AUTOUPDATER=1", `HOME=${s.root}`];
    const pane = Number((await s.ok(["tab", "new", "--cwd", proj, "--", "env", ...env, CLAUDE])).trim());
    await s.waitScreen(pane, "? for shortcuts", 90_000);

    // ws attach in tmux, whose extended keys (asked for by ws attach) send S-Enter as CSI 13;2u.
    await tmux.tmux("new-session", "-d", "-s", "cc", "-x", "120", "-y", "40", `${wsArgv().join(" ")} attach; sleep 3600`, ";", "set", "-g", "extended-keys", "on");
    await tmux.tmux("set-option", "-t", "=cc:", "status", "off");
    await tmux.waitFor("cc", /\[main\] tab \d+\/\d+/);
    expect((await s.request({ v: 5, type: "pane_focus", pane })).type).toBe("ok");
    await tmux.waitFor("cc", "? for shortcuts", 30_000);

    await tmux.text("cc", "first line");
    await s.waitScreen(pane, /❯\s*first line/, 30_000); // Claude puts a no-break space after ❯
    await tmux.keys("cc", "S-Enter");
    await tmux.text("cc", "second line");
    const screen = await s.waitScreen(pane, /❯\s*first line\s*\n\s*second line/, 30_000);
    // Still being edited: nothing was sent (no answer, no error from the model).
    expect(screen).not.toMatch(/⏺|API Error|Bedrock error/);

    await tmux.keys("cc", "Escape", "Escape");
    await waitFor("the prompt cleared", async () => !(await s.screen(pane)).includes("first line"), 30_000);
    expect(await s.screen(pane)).toMatch(/❯\s*\n/);
    await tmux.keys("cc", "C-Space", "d");
  }, 300_000);

  test("the light theme after a re-attach: the same cells as before, nothing left in column 160", async () => {
    const why = await installClaude();
    if (why) return console.warn(`skipped: ${why}`);
    const home = join(s.root, "light-home");
    const proj = join(s.root, "light-proj");
    mkdirSync(proj, { recursive: true });
    mkdirSync(home, { recursive: true });
    // A first run (the theme picker, then the security notes), in a trusted folder.
    writeFileSync(join(home, ".claude.json"), JSON.stringify({ numStartups: 0, projects: { [proj]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } } }));
    const env = ["CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_SKIP_BEDROCK_AUTH=1", "AWS_REGION=us-east-1", "DISABLE_AUTOUPDATER=1", `HOME=${home}`];
    const line = { v: 6, type: "attach", cols: 160, rows: 40 };
    const key = (code: string) => ({ Key: { code, modifiers: "", kind: "Press", state: "" } });
    let c = await RawAttach.open(s.sock, line);
    let outer = new OuterTerminal(c, 160, 40);
    try {
      await c.firstFrame();
      const pane = Number((await s.ok(["tab", "new", "--cwd", proj, "--", "env", ...env, CLAUDE])).trim());
      expect((await s.request({ v: 5, type: "pane_focus", pane })).type).toBe("ok");
      await s.waitScreen(pane, /❯ 2\. Dark mode/, 90_000);
      c.send(key("Down"));
      await s.waitScreen(pane, /❯ 3\. Light mode/, 30_000);
      c.send(key("Enter"));
      await s.waitScreen(pane, "Press Enter to continue", 30_000);
      c.send(key("Enter"));
      await s.waitScreen(pane, "? for shortcuts", 60_000);
      const before = await settledCells(outer);
      c.close();
      await waitFor("the detach", () => c.closed);
      c = await RawAttach.open(s.sock, line);
      outer = new OuterTerminal(c, 160, 40);
      await c.firstFrame();
      await waitFor("the re-attached screen", async () => (await outer.rows()).join("\n").includes("? for shortcuts"), 30_000);
      const after = await settledCells(outer);
      expect(after).toEqual(before);
      // Rows 1–38 are the pane's (the tab bar and status line are ws's own, coloured to the edge).
      for (let y = 1; y < 39; y++) expect({ y, background: after[y]![159]!.split("|")[1] }).toEqual({ y, background: "default" });
    } finally {
      c.close();
    }
  }, 300_000);
});

/** Each cell of the user's terminal as "text|background", once it has stopped changing for 1 s. */
async function settledCells(outer: OuterTerminal): Promise<string[][]> {
  let last = "";
  let since = Date.now();
  let cells: string[][] = [];
  await waitFor("the screen to settle", async () => {
    await outer.rows();
    const b = outer.term.buffer.active;
    cells = [];
    for (let y = 0; y < outer.term.rows; y++) {
      const line = b.getLine(y)!;
      const row: string[] = [];
      for (let x = 0; x < outer.term.cols; x++) {
        const cell = line.getCell(x)!;
        row.push(`${cell.getChars() || " "}|${cell.isBgDefault() ? "default" : `${cell.getBgColorMode()}:${cell.getBgColor()}`}`);
      }
      cells.push(row);
    }
    const now = JSON.stringify(cells);
    if (now !== last) {
      last = now;
      since = Date.now();
      return false;
    }
    return Date.now() - since >= 1000;
  }, 30_000, 100);
  return cells;
}
