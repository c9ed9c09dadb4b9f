// Two people on one session, as tmux users pair: two `ws attach` in two real terminals (tmux
// windows of different sizes), keys sent with send-keys, the screens read with capture-pane.
import { describe, expect, test } from "bun:test";
import { serverWithTmux, PREFIX, attachCommand, statusLine } from "./tmux-driver";
import { RawAttach } from "./raw-attach";
import { waitFor } from "./harness";

const { s: server, tmux } = serverWithTmux();

async function attached(name: string, cols: number, rows: number, flags = "") {
  await tmux.open(name, attachCommand("", flags), cols, rows);
  return tmux.waitFor(name, /\[main\] tab \d+\/\d+/);
}

/** The session's width: its one pane fills it. */
async function sessionCols(): Promise<number> {
  const r = await server.call({ type: "pane_info", pane: 1 });
  return r.cols!;
}

async function clients(): Promise<{ id: number; cols: number; rows: number; latest: boolean }[]> {
  const r = await server.v6({ type: "attach_clients" });
  return r.clients as { id: number; cols: number; rows: number; latest: boolean }[];
}

describe("two clients on one session", () => {
  test("both draw, typing in either reaches the pane, the size follows the latest active client", async () => {
    await attached("big", 120, 40);
    await attached("small", 80, 24);
    // The last to attach is the latest active client: the session has its size.
    await waitFor("the session at the small client's width", async () => (await sessionCols()) === 80 || undefined);
    // The big one still draws (the other attach did not take it away), fitted as tmux fits a
    // window smaller than the terminal: a border right of and under it, dots beyond.
    const big = await tmux.waitFor("big", (s) => s.includes("·") && s.includes("┘"));
    const row = big.split("\n")[3]!;
    expect(row.indexOf("│")).toBe(80);
    expect(row.slice(81).trim()).toMatch(/^·+$/);
    expect(statusLine(big)).toContain("[main]");
    expect(statusLine(big)).not.toMatch(/ \[\d+,\d+\] /); // it shows the whole panes area

    await tmux.text("small", "echo from-small-$((2+3))");
    await tmux.keys("small", "Enter");
    await tmux.waitFor("small", "from-small-5");
    await tmux.waitFor("big", "from-small-5");

    // Typing in the big one makes it the latest: the session takes its size, and the small one
    // sees the part of it around the cursor, with its own bars.
    await tmux.text("big", "echo from-big-$((3+4))");
    await tmux.keys("big", "Enter");
    await tmux.waitFor("big", "from-big-7");
    await waitFor("the session at the big client's width", async () => (await sessionCols()) === 120 || undefined);
    const small = await tmux.waitFor("small", (s) => s.includes("from-big-7") && !s.includes("·"));
    expect(statusLine(small)).toContain("[main]");
    // Its status line says which part it shows (the view's offset in the panes area), as tmux's.
    expect(statusLine(small)).toMatch(/ \[\d+,\d+\] /);
    const list = await clients();
    expect(list.map((c) => [c.cols, c.latest])).toEqual([
      [120, true],
      [80, false],
    ]);
  });

  test("a prompt, help and copy mode show on the client that opened them only", async () => {
    await tmux.keys("big", PREFIX, "?");
    await tmux.waitFor("big", "Keys (prefix is");
    await tmux.keys("small", PREFIX, "[");
    await tmux.waitFor("small", (s) => statusLine(s).includes("COPY"));
    await tmux.waitFor("big", (s) => s.includes("Keys (prefix is") && !statusLine(s).includes("COPY"));
    expect(await tmux.capture("small")).not.toContain("Keys (prefix is");
    await tmux.keys("small", "q");
    await tmux.keys("big", "q");
    await tmux.waitFor("big", (s) => !s.includes("Keys (prefix is"));
    await tmux.keys("small", PREFIX, ":");
    await tmux.waitFor("small", (s) => statusLine(s).startsWith(" ws:"));
    expect(statusLine(await tmux.capture("big"))).not.toContain(" ws:");
    await tmux.keys("small", "Escape");
    await tmux.waitFor("small", (s) => !statusLine(s).startsWith(" ws:"));
  });

  test("ws client list names them; ws client detach ID lets one go", async () => {
    const r = await server.run(["client", "list"], {});
    expect(r.code).toBe(0);
    const list = await clients();
    const small = list.find((c) => c.cols === 80)!;
    expect(r.stdout).toContain(`${small.id}: 80x24`);
    const d = await server.run(["client", "detach", String(small.id)], {});
    expect(d.code).toBe(0);
    await tmux.waitFor("small", "[ws exited 0]");
    expect(await tmux.capture("small")).toContain("detached by ws client detach");
    expect((await clients()).length).toBe(1);
    const none = await server.v6({ type: "attach_client_detach", client: small.id });
    expect(none.code).toBe("client_not_found");
    // The one left is still attached and typing still works.
    await tmux.text("big", "echo still-$((4+4))");
    await tmux.keys("big", "Enter");
    await tmux.waitFor("big", "still-8");
  });

  test("ws attach -d detaches the others; a v1 attach replaces the client, as the spec's", async () => {
    await attached("again", 100, 30);
    expect((await clients()).length).toBe(2);
    await attached("alone", 90, 30, "-d");
    await tmux.waitFor("big", "[ws exited 0]");
    await tmux.waitFor("again", "[ws exited 0]");
    expect(await tmux.capture("again")).toContain("attached from another terminal");
    expect((await clients()).map((c) => c.cols)).toEqual([90]);
    const raw = await RawAttach.open(server.sock, { v: 1, type: "attach", cols: 100, rows: 30, share: true });
    try {
      await raw.firstFrame();
      await tmux.waitFor("alone", "[ws exited 0]");
      expect((await clients()).map((c) => c.cols)).toEqual([100]);
    } finally {
      raw.close();
    }
  });
});

test("at most 16 clients share a session; one more is refused, a replacing attach is still taken", async () => {
  const open: RawAttach[] = [];
  try {
    for (let i = (await clients()).length; i < 16; i++) {
      const c = await RawAttach.open(server.sock, { v: 6, type: "attach", cols: 80, rows: 24, share: true });
      open.push(c);
      await c.firstFrame();
    }
    expect((await clients()).length).toBe(16);
    const extra = await RawAttach.open(server.sock, { v: 6, type: "attach", cols: 80, rows: 24, share: true });
    open.push(extra);
    await extra.firstFrame();
    expect(extra.refusal).toContain("16 clients are attached already");
    expect((await clients()).length).toBe(16);
    const replacing = await RawAttach.open(server.sock, { v: 6, type: "attach", cols: 80, rows: 24 });
    open.push(replacing);
    await replacing.firstFrame();
    expect(replacing.refusal).toBe("");
    await waitFor("one client left", async () => (await clients()).length === 1 || undefined);
    expect(open[0]!.exit?.reason).toBe("replaced");
  } finally {
    for (const c of open) c.close();
  }
});

test("prefix d detaches the client that pressed it; the other stays", async () => {
  await attached("one", 100, 30);
  await attached("two", 100, 30);
  expect((await clients()).length).toBe(2);
  await tmux.keys("two", PREFIX, "d");
  await tmux.waitFor("two", "[ws exited 0]");
  expect((await clients()).length).toBe(1);
  await tmux.text("one", "echo one-$((5+5))");
  await tmux.keys("one", "Enter");
  await tmux.waitFor("one", "one-10");
});
