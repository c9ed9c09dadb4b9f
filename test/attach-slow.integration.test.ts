// A client that stops reading is dropped after SLOW_CLIENT_MS (5 s; 1 s here, WS_SLOW_CLIENT_MS),
// and meanwhile neither the panes nor other connections wait for it.
import { expect, test } from "bun:test";
import { TestServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";

const SLOW_MS = 1000;

test("a client that cannot take output is dropped after SLOW_CLIENT_MS without slowing anything", async () => {
  const server = await new TestServer({ env: { WS_SLOW_CLIENT_MS: String(SLOW_MS) } }).start();
  try {
    // Long lines that change every frame, so the server always has a lot to send.
    await server.request({ v: 2, type: "pane_send", pane: 1, text: "while :; do head -c 30000 /dev/urandom | base64 -w 390; done", enter: true });
    const sock = await RawAttach.open(server.sock, { v: 1, type: "attach", cols: 400, rows: 150 }); // big frames fill the socket buffers fast
    await waitFor("first output", () => sock.outputBytes > 0);
    sock.pause(); // stop reading: the kernel buffers fill, then the server's queue holds
    const t0 = Date.now();
    // While it is stuck, the control socket answers at once and the pane keeps running.
    const before = await server.screen(1);
    const q0 = performance.now();
    const list = await server.list();
    expect(performance.now() - q0).toBeLessThan(1000);
    expect(list[0]!.tabs.length).toBe(1);
    await waitFor("the pane to keep printing", async () => (await server.screen(1)) !== before, 10000);
    // Read again after the drop: the server has closed its end; what is left drains, then EOF.
    // Its buffers take a moment to fill (6 s is plenty), then SLOW_MS run: by then it must be gone.
    await waitFor("the buffers to fill and SLOW_MS to pass", () => Date.now() - t0 > 6000 + SLOW_MS, 15000, 100);
    sock.resume();
    // Under load the backlog in the socket buffers takes a while to read before the EOF shows.
    await waitFor("the connection to be closed by the server", () => sock.closed, 15000);
    expect(Date.now() - t0).toBeLessThan(22000 + SLOW_MS);
    // A new client attaches normally.
    const fresh = await RawAttach.open(server.sock, { v: 1, type: "attach", cols: 80, rows: 24 });
    // Its tab bar: the tab is named after the pane's foreground program (the loop's pipeline, or bash between).
    await waitFor("a fresh client's first screen", () => /1:(bash|head|base64)/.test(fresh.output), 5000);
    fresh.close();
  } finally {
    await server.stop();
  }
}, 60_000);
