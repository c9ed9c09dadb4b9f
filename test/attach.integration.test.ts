// The interface as a person uses it: `ws attach` in a real terminal (tmux),
// keys sent with send-keys, the screen read with capture-pane.
import { describe, expect, test } from "bun:test";
import { serverWithTmux, PREFIX, attachCommand } from "./tmux-driver";

const attachCmd = attachCommand;

const { s: server, tmux } = serverWithTmux();

async function attached(name: string, flags = "") {
  await tmux.open(name, attachCmd("", flags));
  return tmux.waitFor(name, /\[main\] tab \d+\/\d+/);
}

describe("ws attach in a real terminal", () => {
  test("type and see output, split, switch tabs, zoom", async () => {
    await attached("a");
    await tmux.text("a", "echo hi-$((40+2))");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", "hi-42");

    await tmux.keys("a", PREFIX, "%");
    await tmux.waitFor("a", /─ 2: bash/);
    await tmux.text("a", "echo right-$((1+1))");
    await tmux.keys("a", "Enter");
    const both = await tmux.waitFor("a", "right-2");
    // The left pane's output is still there, beside the right one, on the same rows.
    const row = both.split("\n").find((l) => l.includes("right-2"))!;
    expect(row.indexOf("right-2")).toBeGreaterThan(50);
    const tabs = (await server.list())[0]!.tabs;
    expect(tabs[0]!.panes.length).toBe(2);

    await tmux.keys("a", PREFIX, '"');
    await tmux.waitFor("a", /─ 3: bash/);
    expect((await server.list())[0]!.tabs[0]!.panes.length).toBe(3);

    // New tab (its name prompt, Enter for none), then back to tab 1 by number.
    await tmux.keys("a", PREFIX, "c");
    await tmux.waitFor("a", "new tab name");
    await tmux.keys("a", "Enter");
    await tmux.waitFor("a", "tab 2/2");
    await tmux.keys("a", PREFIX, "1");
    await tmux.waitFor("a", (s) => s.includes("tab 1/2") && s.includes("right-2"));
    await tmux.keys("a", PREFIX, "n");
    await tmux.waitFor("a", "tab 2/2");
    await tmux.keys("a", PREFIX, "p");
    await tmux.waitFor("a", "tab 1/2");

    // Zoom the focused pane: the others' labels go, the status says so; and back.
    await tmux.keys("a", PREFIX, "z");
    const zoomed = await tmux.waitFor("a", "(zoomed)");
    expect(zoomed).not.toContain("─ 1: bash");
    await tmux.keys("a", PREFIX, "z");
    await tmux.waitFor("a", (s) => s.includes("─ 1: bash") && !s.includes("(zoomed)"));

    // Focus by direction: left from the bottom-right pane reaches pane 1.
    await tmux.keys("a", PREFIX, "Left");
    await tmux.waitFor("a", "pane 1 ");

    // Detach: the terminal comes back and the client says why.
    await tmux.keys("a", PREFIX, "d");
    await tmux.waitFor("a", (s) => s.includes("detached") && s.includes("[ws exited 0]"));
  });

  test("re-attach shows the screen intact; output made while detached shows too", async () => {
    await server.request({ v: 2, type: "pane_send", pane: 1, text: "echo while-$((2*3))-away", enter: true });
    await server.waitScreen(1, "while-6-away");
    await attached("b");
    const s = await tmux.waitFor("b", (s) => s.includes("hi-42") && s.includes("while-6-away") && s.includes("right-2"));
    expect(s).toContain("─ 2: bash");
  });

  test("ws attach -d replaces the client attached, which gets its terminal back", async () => {
    await tmux.waitFor("b", "[main]");
    await attached("c", "-d");
    const first = await tmux.waitFor("b", "[ws exited 0]");
    expect(first).toContain("attached from another terminal");
    // Its terminal is back to normal: the alternate screen is gone, the shell line is usable.
    expect(first).not.toContain("[main] tab");
    await tmux.text("c", "echo still-$((3+4))");
    await tmux.keys("c", "Enter");
    await tmux.waitFor("c", "still-7");
  });

  test("kill -9 of the client leaves the server and panes fine", async () => {
    const shellPid = await tmux.panePid("c");
    const child = (await Bun.$`pgrep -P ${shellPid}`.text()).trim().split("\n")[0]!;
    process.kill(Number(child), "SIGKILL");
    await tmux.waitFor("c", "[ws exited 137]");
    const ws = await server.list();
    expect(ws[0]!.tabs[0]!.panes.length).toBe(3);
    await server.request({ v: 2, type: "pane_send", pane: 1, text: "echo after-$((4+4))-kill", enter: true });
    await server.waitScreen(1, "after-8-kill");
    await attached("d");
    await tmux.waitFor("d", "after-8-kill");
  });

  test("a refused attach prints the error line and exits non-zero", async () => {
    const r = await server.run(["attach"], {});
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("needs a terminal");
    const line = await server.rawLine('{"v":1,"type":"attach","cols":"wide","rows":40}\n');
    expect(line.startsWith("e")).toBe(true);
  });

  test("SIGTERM to the client gives the terminal back", async () => {
    await attached("e");
    const shellPid = await tmux.panePid("e");
    const child = (await Bun.$`pgrep -P ${shellPid}`.text()).trim().split("\n")[0]!;
    process.kill(Number(child), "SIGTERM");
    const s = await tmux.waitFor("e", /\[ws exited \d+\]/);
    expect(s).not.toContain("[main] tab");
    expect(s).toContain("SIGTERM");
  });

  test("when the server dies (kill -9) the client restores the terminal and says so", async () => {
    await attached("f");
    process.kill(server.daemonPid()!, "SIGKILL");
    const s = await tmux.waitFor("f", "[ws exited 0]");
    expect(s).toContain("[server exited]");
    expect(s).not.toContain("[main] tab");
  });
});

