// Typing beside a flood, through a real terminal (tmux) running `ws attach`: every key typed into a
// quiet pane shows, in order and intact, while the pane beside it floods (cooked, and a raw-mode
// writer as agent TUIs are), and the flooding pane keeps being redrawn meanwhile. The bounds are
// generous: speed is measured by bench/flood-echo.ts, this checks nothing stalls or garbles.
import { beforeAll, expect, test } from "bun:test";
import { waitFor, wsArgv } from "./harness";
import { serverWithTmux } from "./tmux-driver";

const KEYS = 60;
/** How long one key may take to show, under any load this machine sees. */
const KEY_BOUND_MS = 5000;

/** Numbered lines as fast as the program can write them, cooked or in raw mode (no ONLCR). */
const flooder = (raw: boolean) =>
  `import os, sys, itertools, tty
${raw ? "tty.setraw(0)" : ""}
for i in itertools.count():
    os.write(1, b"".join(b"F%d${raw ? "\\r\\n" : "\\n"}" % (i * 512 + j) for j in range(512)))
`;

const { s: server, tmux } = serverWithTmux();
beforeAll(async () => {
  await tmux.open("ws", `${wsArgv().join(" ")} attach; sleep 3600`, 120, 40);
  await tmux.waitFor("ws", "[main] tab 1/1");
});
for (const raw of [false, true]) {
  test(`keys typed beside a ${raw ? "raw-mode" : "cooked"} flood all show, in order, and the flood keeps being drawn`, async () => {
    const first = (await server.list())[0]!.tabs[0]!.panes[0];
    const typed = await server.request({ v: 2, type: "split", pane: first, right: false, focus: true, cwd: "/tmp", command: ["sh", "-c", "stty raw -echo; exec cat"] });
    expect(typed.type).toBe("pane");
    const flood = await server.request({ v: 2, type: "split", pane: typed.pane, right: false, focus: false, cwd: "/tmp", command: ["python3", "-c", flooder(raw)] });
    expect(flood.type).toBe("pane");
    await tmux.waitFor("ws", /^F\d+/m);

    const floodShown = new Set<number>();
    const sawFlood = (screen: string) => {
      const n = [...screen.matchAll(/^F(\d+)\s*$/gm)].map((m) => Number(m[1]));
      if (n.length) floodShown.add(Math.max(...n));
    };
    const body = Array.from({ length: KEYS }, (_, i) => "abcdefghijkmnopqrstuvwz"[i % 23]).join("");
    await tmux.text("ws", "Q:");
    for (let i = 0; i <= KEYS; i++) {
      if (i > 0) await tmux.text("ws", body[i - 1]!);
      const want = "Q:" + body.slice(0, i);
      // The typed pane's row shows exactly what was typed so far: nothing missing, nothing swapped.
      sawFlood(await tmux.waitFor("ws", (s) => s.match(/Q:[a-z]*/)?.[0] === want, KEY_BOUND_MS));
    }
    const screen = await tmux.capture("ws");
    expect(screen.match(/Q:[a-z]*/)?.[0]).toBe("Q:" + body);
    // The flood went on being drawn while the keys were typed (and is still drawn now).
    await tmux.waitFor("ws", (s) => (sawFlood(s), floodShown.size >= 3), 10_000);
    expect(floodShown.size).toBeGreaterThanOrEqual(3);

    await server.request({ v: 2, type: "pane_close", pane: flood.pane });
    await server.request({ v: 2, type: "pane_close", pane: typed.pane });
    await waitFor("the split panes to close", async () => (await server.list())[0]!.tabs[0]!.panes.length === 1);
  }, 120_000);
}
