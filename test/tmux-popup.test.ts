// display-popup / ws popup: a pane floating over the tab, as the person sees it through `ws attach`
// in a real terminal (tmux), and as tools use it through the tmux shim (fzf --tmux-style scripts:
// `tmux display-popup -E 'cmd > file'`, then read the file).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, realpathSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor, wsArgv, type RunResult } from "./harness";
import { Tmux } from "./tmux-driver";

let s: TestServer;
let term: Tmux;
let lead: number;
let shimEnv: Record<string, string>;
let dir: string;

beforeAll(async () => {
  s = await new TestServer().start();
  term = new Tmux(s.env);
  lead = (await s.v6({ type: "pane_list" })).panes[0]!.pane;
  dir = realpathSync(mkdtempSync(join(s.root, "popup-")));
  const r = await s.run(["tmux-shim", "--", "sh", "-c", 'printf "%s\\n" "$PATH" "$TMUX"'], { env: { WS_PANE_ID: String(lead), WS_SOCKET: s.sock } });
  expect(r.code).toBe(0);
  const [path, tmuxVar] = r.stdout.split("\n");
  shimEnv = { ...s.env, PATH: path!, TMUX: tmuxVar!, TMUX_PANE: `%${lead}`, WS_SOCKET: s.sock, WS_PANE_ID: String(lead) };
});
afterAll(async () => {
  await term.kill();
  await s.stop();
});

/** `tmux ARGS` as a tool in pane `lead` runs it under the shim. */
async function shim(args: string[]): Promise<RunResult> {
  const proc = Bun.spawn([Bun.which("tmux", { PATH: shimEnv.PATH })!, ...args], { env: shimEnv, cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** The top-left corner of a `w`x`h` display-popup in a real tmux on a `cols`x`rows` terminal (a
 * window of the test's tmux attached to a second tmux server). */
async function realTmuxPopupCorner(cols: number, rows: number, w: number, h: number): Promise<{ top: number; left: number }> {
  const inner = new Tmux(s.env);
  try {
    await inner.tmux("new-session", "-d", "-s", "in", "-x", String(cols), "-y", String(rows), "sleep 3600");
    await term.open("real", `env -u TMUX tmux -L ${inner.sock} -f /dev/null attach -t =in:`, cols, rows);
    const client = await waitFor("the inner tmux's client", async () => (await inner.tmux("list-clients", "-F", "#{client_name}")).trim() || undefined);
    void inner.tmux("display-popup", "-c", client, "-w", String(w), "-h", String(h), "sleep 3600").catch(() => {});
    const lines = (await term.waitFor("real", "┌")).split("\n");
    const top = lines.findIndex((l) => l.includes("┌"));
    return { top, left: lines[top]!.indexOf("┌") };
  } finally {
    await inner.kill();
    await term.tmux("kill-session", "-t", "=real").catch(() => {});
  }
}

const paneIds = async () => ((await s.v6({ type: "pane_list" })).panes as { pane: number }[]).map((p) => p.pane);

describe("with nobody attached", () => {
  test("ws popup fails with no_client and starts nothing; the shim's display-popup fails as tmux does", async () => {
    const before = await paneIds();
    const r = await s.v6({ id: 1, type: "popup", command: ["true"] });
    expect(r.type).toBe("error");
    expect(r.code).toBe("no_client");
    expect(await paneIds()).toEqual(before);
    expect(await shim(["display-popup", "-E", "true"])).toEqual({ code: 1, stdout: "", stderr: "no current client\n" });
  });

  test("#{client_termtype} is empty", async () => {
    expect(await shim(["display-message", "-p", "#{client_termtype}"])).toEqual({ code: 0, stdout: "\n", stderr: "" });
  });
});

describe("attached", () => {
  beforeAll(async () => {
    await s.ok(["pane", "send", String(lead), "--enter", "--", "echo UNDER-THE-POPUP"]);
    await s.waitScreen(lead, "UNDER-THE-POPUP");
    await term.open("ws", `${wsArgv().join(" ")} attach; sleep 3600`, 100, 30);
    await term.waitFor("ws", "UNDER-THE-POPUP");
  });

  test("#{client_termtype} is what the terminal says it is (XTVERSION), #{client_termname} its TERM, as in tmux 3.3a", async () => {
    const term_ = (await term.tmux("show-options", "-gv", "default-terminal")).trim(); // what tmux gives ws attach
    expect(term_).not.toBe("");
    expect(await shim(["display-message", "-p", "#{client_termname}"])).toEqual({ code: 0, stdout: `${term_}\n`, stderr: "" });
    // tmux answers XTVERSION with its name and version, as `tmux -V` prints them.
    const version = (await term.tmux("-V")).trim();
    await waitFor("the terminal's answer", async () => ((await shim(["display-message", "-p", "#{client_termtype}"])).stdout === `${version}\n` ? true : undefined));
  });

  test("a popup is drawn over the tab with a border, takes the keys, and closes with its program, the screen under it back", async () => {
    const before = await s.v6({ type: "pane_info", pane: lead });
    // It stays until the test has seen its answer (the gate file), then exits.
    const gate = join(dir, "popup-gate");
    const r = await s.v6({ id: 1, type: "popup", command: ["sh", "-c", 'printf "pick> "; read x; echo "got $x"; while [ ! -e "$1" ]; do sleep 0.05; done', "sh", gate], width: "40", height: "10" });
    expect(r.type).toBe("popup");
    const id = r.pane as number;
    const screen = await term.waitFor("ws", "pick> ");
    const lines = screen.split("\n");
    // Where a real tmux 3.3a puts a 40x10 popup on a terminal of the same size (100x30).
    const real = await realTmuxPopupCorner(100, 30, 40, 10);
    const top = lines.findIndex((l) => l.includes("┌"));
    const left = lines[top]!.indexOf("┌");
    expect({ top, left }).toEqual(real);
    expect(lines[top]!.indexOf("┐")).toBe(left + 39);
    expect(lines[top]).toContain(`${id}:`);
    expect(lines[top + 9]!.slice(left, left + 40)).toBe("└" + "─".repeat(38) + "┘");
    expect(lines[top + 1]!.slice(left, left + 10)).toBe("│pick> ".padEnd(10));
    // The popup's program sees the inside of the border; the layout did not move.
    expect((await s.v6({ type: "pane_info", pane: id })).cols).toBe(38);
    expect((await s.v6({ type: "pane_info", pane: lead })).cols).toBe(before.cols);
    // Keys go to the popup, not the pane under it.
    await term.text("ws", "apple");
    await term.keys("ws", "Enter");
    await s.waitScreen(id, "got apple");
    writeFileSync(gate, "");
    // It closes with its program, and the screen under it is whole again.
    await waitFor("the popup to close", async () => !(await paneIds()).includes(id));
    const after = await term.waitFor("ws", (t) => !t.includes("┌") && t.includes("UNDER-THE-POPUP"));
    expect(after).not.toContain("pick>");
    expect(await s.screen(lead)).not.toContain("apple");
    // Keys go to the pane again.
    await term.text("ws", "echo BACK-IN-LEAD");
    await term.keys("ws", "Enter");
    await s.waitScreen(lead, /^BACK-IN-LEAD$/m);
  });

  test("close=key keeps it after its program exits, until Esc; a second popup on a tab is refused", async () => {
    const r = await s.v6({ id: 1, type: "popup", command: ["sh", "-c", "echo DONE-HERE"], close: "key" });
    const id = r.pane as number;
    await term.waitFor("ws", (t) => t.includes("DONE-HERE") && t.includes("[exited: status 0]"));
    expect((await s.v6({ id: 2, type: "popup", command: ["true"] })).code).toBe("popup_open");
    expect((await s.v6({ id: 3, type: "split", pane: id, cwd: "/", command: [] })).code).toBe("pane_is_popup");
    await term.keys("ws", "Escape");
    await waitFor("Esc to close the popup", async () => !(await paneIds()).includes(id));
    await term.waitFor("ws", (t) => !t.includes("DONE-HERE"));
  });

  test("a waiting popup closed from outside answers with no exit status (129 through the shim); one over a closed tab goes with it", async () => {
    const before = await paneIds();
    const waiting = shim(["display-popup", "-E", "echo STILL-RUNNING; exec sleep 1000"]);
    const id = await waitFor("the popup to open", async () => (await paneIds()).find((p) => !before.includes(p)));
    await s.waitScreen(id, "STILL-RUNNING");
    expect((await s.v6({ id: 1, type: "pane_close", pane: id })).type).not.toBe("error");
    expect((await waiting).code).toBe(129);

    const tab = (await s.v6({ id: 2, type: "tab_new", command: ["sleep", "1000"], focus: true })).pane as number;
    const popup = (await s.v6({ id: 3, type: "popup", pane: tab, command: ["sleep", "1000"] })).pane as number;
    const closed = s.v6({ id: 4, type: "popup", pane: lead, command: ["true"] }); // another tab: its own popup
    expect((await closed).type).toBe("popup");
    await s.v6({ id: 5, type: "pane_close", pane: tab });
    await waitFor("the popup to go with its tab", async () => !(await paneIds()).includes(popup));
    await s.v6({ id: 6, type: "pane_focus", pane: lead });
    await term.waitFor("ws", (t) => !t.includes("┌") && t.includes("UNDER-THE-POPUP"));
  });

  test("display-popup -E 'echo hi > file' through the shim writes the file and returns after the popup closed", async () => {
    const file = join(dir, "picked");
    const started = Date.now();
    const r = await shim(["display-popup", "-E", "-w", "50%", "-h", "40%", `sleep 0.5; echo hi > ${file}`]);
    expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(readFileSync(file, "utf8")).toBe("hi\n");
    expect((await s.v6({ type: "session_snapshot" })).workspaces[0]!.tabs[0]!.panes).toEqual([lead]);
  });

  test("ws popup --wait returns when the popup closes and exits with its program's status; without --wait it prints the pane at once", async () => {
    const waited = await s.run(["popup", "--wait", "--", "sh", "-c", "exit 7"]);
    expect(waited.code).toBe(7);
    expect(waited.stdout).toMatch(/^\d+\n$/);
    expect(await paneIds()).not.toContain(Number(waited.stdout));
    const quick = await s.run(["popup", "--", "sleep", "1000"]);
    expect(quick.code).toBe(0);
    const id = Number(quick.stdout);
    expect(await paneIds()).toContain(id);
    await s.v6({ id: 1, type: "pane_close", pane: id });
    await waitFor("the popup to close", async () => !(await paneIds()).includes(id));
  });

  test("fzf in a popup: the person picks with the keys, the script reads the pick after the call returns", async () => {
    const file = join(dir, "fzf-pick");
    const waiting = shim(["display-popup", "-E", "-w", "60%", "-h", "50%", `printf 'apple\\nbanana\\ncherry\\n' | fzf > ${file}`]);
    await term.waitFor("ws", (t) => t.includes("3/3") && t.includes("cherry"));
    await term.text("ws", "ban");
    await term.waitFor("ws", "1/3");
    await term.keys("ws", "Enter");
    expect(await waiting).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(file, "utf8")).toBe("banana\n");
    await term.waitFor("ws", (t) => !t.includes("cherry") && t.includes("UNDER-THE-POPUP"));
  });

  test("run-shell's output shows in a popup, as tmux shows it in a view over the pane; Esc closes it", async () => {
    const r = await shim(["run-shell", "echo RUN-SAID-THIS; exit 2"]);
    expect(r).toEqual({ code: 2, stdout: "", stderr: "" });
    await term.waitFor("ws", (t) => t.includes("RUN-SAID-THIS") && t.includes("'echo RUN-SAID-THIS; exit 2' returned 2"));
    await term.keys("ws", "Escape");
    await term.waitFor("ws", (t) => !t.includes("RUN-SAID-THIS") && t.includes("UNDER-THE-POPUP"));
  });

  test("display-popup exits with its program's status; -E -E keeps a failed one until a key, as tmux does", async () => {
    expect((await shim(["display-popup", "-E", "exit 3"])).code).toBe(3);
    const waiting = shim(["display-popup", "-E", "-E", "echo FAILED-ONE; exit 4"]);
    await term.waitFor("ws", (t) => t.includes("FAILED-ONE") && t.includes("[exited: status 4]"));
    await term.keys("ws", "C-c");
    expect((await waiting).code).toBe(4);
    expect(existsSync(join(dir, "never"))).toBe(false);
  });
});
