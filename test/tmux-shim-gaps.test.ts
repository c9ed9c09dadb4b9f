// tmux shim gaps seen with Claude Code's agent teams, fzf-tmux and tmuxp: a call
// with TMUX removed stays on ws; display-popup -B has no border; default-shell is the shell panes
// run; #{pane_start_command} is the command the tool gave, quoted as tmux quotes it (compared with
// a real tmux 3.3 where one is installed); #{client_control_mode} is 0; display-message with no
// target answers for the active pane, as tmux does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor, type RunResult } from "./harness";
import { RawAttach } from "./raw-attach";
import { tmuxEscape } from "../src/tmux-shim/pane-command";
import { ESC_TIMEOUT_MS } from "../src/protocol/terminal-defaults";

let s: TestServer;
let lead: number;
let shimEnv: Record<string, string>;
let dir: string;
const REAL_TMUX = Bun.which("tmux");

beforeAll(async () => {
  s = await new TestServer().start();
  lead = (await s.v6({ type: "pane_list" })).panes[0]!.pane;
  dir = realpathSync(mkdtempSync(join(s.root, "gaps-")));
  const r = await s.run(["tmux-shim", "--", "sh", "-c", 'printf "%s\\n" "$PATH" "$TMUX"'], { env: { WS_PANE_ID: String(lead), WS_SOCKET: s.sock } });
  expect(r.code).toBe(0);
  const [path, tmuxVar] = r.stdout.split("\n");
  // A real tmux the shim might wrongly hand a call to would put its server here, not in /tmp.
  shimEnv = { ...s.env, PATH: path!, TMUX: tmuxVar!, TMUX_PANE: `%${lead}`, WS_SOCKET: s.sock, WS_PANE_ID: String(lead), TMUX_TMPDIR: join(s.root, "real-tmux") };
});
afterAll(() => s.stop());

/** `tmux ARGS` as a tool in pane `pane` runs it under the shim; `unset` drops variables first. */
async function shim(args: string[], o: { pane?: number; unset?: string[]; env?: Record<string, string> } = {}): Promise<RunResult> {
  const pane = o.pane ?? lead;
  const env: Record<string, string> = { ...shimEnv, TMUX_PANE: `%${pane}`, WS_PANE_ID: String(pane), ...o.env };
  for (const k of o.unset ?? []) delete env[k];
  const proc = Bun.spawn([Bun.which("tmux", { PATH: shimEnv.PATH })!, ...args], { env, cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
async function ok(args: string[], o: Parameters<typeof shim>[1] = {}): Promise<string> {
  const r = await shim(args, o);
  if (r.code !== 0) throw new Error(`tmux ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

describe("a call with TMUX removed (libtmux around new-session)", () => {
  test("stays on ws: new-session makes a ws workspace, and no real tmux server is started", async () => {
    expect(await ok(["display-message", "-p", "#{socket_path}"], { unset: ["TMUX", "TMUX_PANE"] })).toBe(`${s.sock}\n`);
    const id = (await ok(["new-session", "-d", "-s", "libtmux-made", "-P", "-F", "#{session_id}"], { unset: ["TMUX"] })).trim();
    expect(id).toMatch(/^\$\d+$/);
    const names = ((await s.v6({ type: "session_snapshot" })).workspaces as { name: string }[]).map((w) => w.name);
    expect(names).toContain("libtmux-made");
    // Its pane got TMUX back, naming ws, as tmux gives its panes TMUX.
    const pane = Number((await ok(["list-panes", "-t", "libtmux-made", "-F", "#{pane_id}"], { unset: ["TMUX"] })).trim().slice(1));
    await s.ok(["pane", "send", String(pane), "--enter", "--", 'echo "T=${TMUX%%,*}"']);
    await s.waitScreen(pane, `T=${s.sock}`);
    expect(existsSync(shimEnv.TMUX_TMPDIR!) ? readdirSync(shimEnv.TMUX_TMPDIR!) : []).toEqual([]);
    await ok(["kill-session", "-t", "libtmux-made"]);
  });

  test("-L naming another server still goes to the real tmux, TMUX removed or not", async () => {
    if (!REAL_TMUX) return console.warn("skipped: no real tmux installed");
    // -L other with TMUX removed: not ws's server; the real tmux answers that it has none.
    const r = await shim(["-L", "other", "list-sessions"], { unset: ["TMUX"] });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no server running|error connecting/);
  });
});

describe("options and formats", () => {
  test("show-options -Av default-shell is the shell panes run ($SHELL), and what set -g made it", async () => {
    expect(await ok(["show-options", "-Av", "default-shell"])).toBe(`${s.env.SHELL}\n`);
    expect(await ok(["show-options", "-gv", "default-shell"])).toBe(`${s.env.SHELL}\n`);
    await ok(["set-option", "-g", "default-shell", "/bin/sh"]);
    expect(await ok(["show-options", "-gv", "default-shell"])).toBe("/bin/sh\n");
    // A command line now runs with it.
    const pane = (await ok(["split-window", "-d", "-P", "-F", "#{pane_id}", 'echo "shell=$0"; exec sleep 100'])).trim();
    await s.waitScreen(Number(pane.slice(1)), "shell=/bin/sh");
    await ok(["kill-pane", "-t", pane]);
    await ok(["set-option", "-gu", "default-shell"]);
    expect(await ok(["show-options", "-gv", "default-shell"])).toBe(`${s.env.SHELL}\n`);
  });

  test("default-terminal is the TERM panes get, and escape-time the wait ws gives a lone ESC (not tmux's screen and 500)", async () => {
    const pane = (await ok(["split-window", "-d", "-P", "-F", "#{pane_id}", 'printf "term=%s.\\n" "$TERM"; exec sleep 100'])).trim();
    const seen = (await s.waitScreen(Number(pane.slice(1)), /term=\S+\./)).match(/term=(\S+)\./)![1];
    await ok(["kill-pane", "-t", pane]);
    expect(await ok(["show-options", "-gv", "default-terminal"])).toBe(`${seen}\n`);
    expect(await ok(["show-options", "-gv", "escape-time"])).toBe(`${ESC_TIMEOUT_MS}\n`);
  });

  test("#{client_control_mode} is 0", async () => {
    expect(await ok(["display-message", "-p", "#{client_control_mode}"])).toBe("0\n");
  });

  test("display-message with no target answers for the active pane; -t for the one named", async () => {
    const other = (await ok(["split-window", "-d", "-P", "-F", "#{pane_id}", "exec sleep 100"])).trim();
    // Called from the pane that is not active: tmux 3.3 still answers with the active one.
    expect(await ok(["display-message", "-p", "#{pane_id}"], { pane: Number(other.slice(1)) })).toBe(`%${lead}\n`);
    expect(await ok(["display-message", "-p", "-t", other, "#{pane_id}"], { pane: lead })).toBe(`${other}\n`);
    await ok(["select-pane", "-t", other]);
    expect(await ok(["display-message", "-p", "#{pane_id}"], { pane: lead })).toBe(`${other}\n`);
    await ok(["kill-pane", "-t", other]);
  });
});

describe("#{pane_start_command}", () => {
  // The words as tmux 3.3a printed them for the same commands (see also the live comparison below).
  test("words quoted as tmux's args_escape quotes them", () => {
    const cases: [string, string][] = [
      ["sleep 100", '"sleep 100"'], ["it's", `"it's"`], ["~", "\\~"], ['a"b', `'a"b'`], ["", "''"], ["tab\tx", "tab\\tx"],
      ["~/x", "\\~/x"], ["x~", "x~"], ["a\\b", "a\\\\b"], ["é", "é"], ["#", "\\#"], ["a{b", '"a{b"'], ["$", "\\$"], ["plain", "plain"],
      ["a b", '"a b"'], ["x'y z", `"x'y z"`], ["sleep 100; echo $HOME", '"sleep 100; echo \\$HOME"'], ['echo "hi there"; sleep 100 # x', '"echo \\"hi there\\"; sleep 100 # x"'],
    ];
    for (const [word, shown] of cases) expect(tmuxEscape(word)).toBe(shown);
  });

  const commands: string[][] = [["sleep 100; echo $HOME"], ["sh", "-c", 'echo "hi there"; sleep 100 # x'], ["sh", "-c", "sleep 100", "it's", "~", 'a"b', "", "a b"]];

  test("the command the tool gave, not the shim's wrapper", async () => {
    for (const words of commands) {
      const id = (await ok(["split-window", "-d", "-P", "-F", "#{pane_id}", ...words])).trim();
      const shown = (await ok(["display-message", "-p", "-t", id, "#{pane_start_command}"])).trimEnd();
      expect(shown).toBe(words.map(tmuxEscape).join(" "));
      expect(shown).not.toContain("TMUX_PANE");
      await ok(["kill-pane", "-t", id]);
    }
  });

  test("the same text as a real tmux 3.3 shows", async () => {
    if (!REAL_TMUX) return console.warn("skipped: no real tmux installed");
    const real = async (...args: string[]) => {
      const p = Bun.spawn([REAL_TMUX, "-L", "gaps", "-f", "/dev/null", ...args], { env: { ...s.env, TMUX_TMPDIR: s.root }, stdout: "pipe", stderr: "pipe" });
      const [out, , code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      if (code !== 0) throw new Error(`real tmux ${args.join(" ")} exited ${code}`);
      return out;
    };
    await real("new-session", "-d", "-x", "200", "-y", "50", "sleep 100");
    try {
      for (const words of commands) {
        const id = (await real("new-window", "-d", "-P", "-F", "#{pane_id}", ...words)).trim();
        const want = await real("display-message", "-p", "-t", id, "#{pane_start_command}");
        const mine = (await ok(["split-window", "-d", "-P", "-F", "#{pane_id}", ...words])).trim();
        expect(await ok(["display-message", "-p", "-t", mine, "#{pane_start_command}"])).toBe(want);
        await ok(["kill-pane", "-t", mine]);
      }
    } finally {
      await real("kill-server").catch(() => {});
    }
  });
});

describe("display-popup -B", () => {
  test("no border: the program has the whole box", async () => {
    const c = await RawAttach.open(s.sock, { v: 6, type: "attach", cols: 100, rows: 30 });
    try {
      await c.firstFrame();
      const sizes = join(dir, "sizes");
      for (const flags of [[], ["-B"]]) {
        const r = await shim(["display-popup", ...flags, "-E", "-w", "20", "-h", "7", `stty size >> ${sizes}`]);
        expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
      }
      // With the border 18x5 inside it; without, all of 20x7.
      expect(readFileSync(sizes, "utf8")).toBe("5 18\n7 20\n");
    } finally {
      c.close();
    }
  });

  test("the popup message's border=false, drawn without a frame", async () => {
    const c = await RawAttach.open(s.sock, { v: 6, type: "attach", cols: 100, rows: 30 });
    try {
      await c.firstFrame();
      const r = await s.v6({ type: "popup", command: ["sh", "-c", "printf BORDERLESS; exec sleep 100"], width: "30", height: "5", border: false });
      expect(r.type).toBe("popup");
      await waitFor("the popup drawn", () => c.output.includes("BORDERLESS"));
      expect(c.output).not.toContain("┌");
      await s.v6({ type: "pane_close", pane: r.pane });
    } finally {
      c.close();
    }
  });
});
