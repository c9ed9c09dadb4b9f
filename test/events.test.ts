// subscribe: a scripted sequence seen in order with increasing seq; resume after a disconnect
// without losing or repeating an event; filters; opt-in output; gaps; and a flood to a reader that
// never reads (the daemon's memory stays bounded, other clients are unaffected, the reader gets a gap).
import { expect, test } from "bun:test";
import { Conn, readUntil, rssKb, useServer, waitFor } from "./harness";
import type { AnyReply } from "./replies";

const s = useServer();


async function subscribe(fields: Record<string, unknown> = {}, opts: { read?: boolean } = {}) {
  const c = await Conn.open(s.sock, opts);
  c.send({ v: 6, id: "sub", type: "subscribe", ...fields });
  return c;
}


test("a scripted sequence arrives in order with increasing seq; a resumed subscriber misses and repeats nothing", async () => {
  const hello = await s.v6({ type: "hello" });
  const c = await subscribe();
  const ack = await c.nextJson();
  expect(ack).toMatchObject({ v: 6, id: "sub", type: "subscribed", boot_id: hello.boot_id });
  expect(ack.seq).toBeGreaterThanOrEqual(hello.seq);

  const pane = (await s.v6({ type: "tab_new", name: "seq", cwd: "/tmp", command: ["cat"] })).pane;
  const tab = (await s.v6({ type: "pane_info", pane })).tab;
  const second = (await s.v6({ type: "split", pane, cwd: "/tmp", command: ["cat"], focus: false })).pane;
  await s.v6({ type: "pane_send", pane, text: "hello", enter: true });
  await s.v6({ type: "pane_close", pane: second });
  await s.v6({ type: "tab_close", tab: "seq" });
  const seen = await readUntil(c, (e) => e.event === "tab_closed" && e.tab === tab);
  const names = seen.map((e) => `${e.event}${e.pane !== undefined ? `:${e.pane}` : ""}`);
  expect(names).toEqual([
    `tab_created`,
    `pane_created:${pane}`,
    `pane_created:${second}`,
    `layout_changed`,
    `pane_closed:${second}`,
    `layout_changed`,
    `pane_closed:${pane}`,
    `tab_closed`,
  ]);
  for (const [i, e] of seen.entries()) {
    expect(e).toMatchObject({ v: 6, type: "event", boot_id: ack.boot_id });
    expect(e.seq).toBe(ack.seq! + 1 + i);
  }
  expect(seen[1]).toMatchObject({ workspace: "main", tab, pane });

  // Disconnect, let things happen, resume from the last seq seen.
  c.close();
  const last = seen[seen.length - 1]!.seq!;
  const p2 = (await s.v6({ type: "tab_new", name: "while-away", cwd: "/tmp", command: ["cat"] })).pane;
  await s.v6({ type: "tab_close", tab: "while-away" });
  const r = await subscribe({ after_seq: last, boot_id: ack.boot_id });
  const ack2 = await r.nextJson();
  expect(ack2.type).toBe("subscribed");
  const missed = await readUntil(r, (e) => e.event === "tab_closed");
  expect(missed.map((e) => e.event)).toEqual(["tab_created", "pane_created", "pane_closed", "tab_closed"]);
  expect(missed[1]!.pane).toBe(p2);
  expect(missed.map((e) => e.seq)).toEqual([last + 1, last + 2, last + 3, last + 4]);
  expect(ack2.seq).toBe(last + 4);
  // Then live, continuing the same numbering.
  await s.v6({ type: "workspace_new", name: "Live" });
  const live = await readUntil(r, (e) => e.event === "pane_created");
  expect(live.map((e) => e.seq)).toEqual([last + 5, last + 6, last + 7]);
  r.close();
});

test("a program setting its title publishes pane_renamed once per change, with where the pane is", async () => {
  const c = await subscribe({ types: ["pane_renamed"] });
  expect((await c.nextJson()).type).toBe("subscribed");
  // The same title twice is one change; the shell reading `go` lets the titles come after the
  // subscription, and then stays in the foreground (a program started after the titles would
  // rename the pane too, maybe before a loaded server has read them).
  const script = "read go; printf '\\033]0;first\\007'; printf '\\033]0;first\\007'; printf '\\033]0;second\\007'; read done";
  const pane = (await s.v6({ type: "tab_new", name: "titles", cwd: "/tmp", command: ["sh", "-c", script] })).pane;
  const tab = (await s.v6({ type: "pane_info", pane })).tab;
  await s.v6({ type: "pane_send", pane, text: "go", enter: true });
  const seen = await readUntil(c, (e) => e.title === "second");
  expect(seen.map((e) => [e.event, e.pane, e.title, e.label])).toEqual([
    ["pane_renamed", pane, "first", "first"],
    ["pane_renamed", pane, "second", "second"],
  ]);
  expect(seen[0]).toMatchObject({ workspace: "main", tab });
  expect((await s.v6({ type: "pane_info", pane })).title).toBe("second");
  c.close();
  await s.v6({ type: "tab_close", tab: "titles" });
});

test("a tab put in another place publishes tab_moved, not layout_changed: its layout is the same", async () => {
  await s.v6({ type: "workspace_new", name: "Moves" });
  await s.v6({ type: "tab_new", workspace: "Moves", name: "first", cwd: "/tmp", command: ["cat"] });
  const old = (await s.v6({ type: "pane_info", pane: (await s.v6({ type: "tab_new", workspace: "Moves", name: "old", cwd: "/tmp", command: ["cat"] })).pane })).tab;
  await s.v6({ type: "tab_new", workspace: "Moves", name: "last", cwd: "/tmp", command: ["cat"] });
  const c = await subscribe({ types: ["tab_moved", "layout_changed"], workspace: "Moves" });
  expect((await c.nextJson()).type).toBe("subscribed");
  const places = async () => (await s.list()).find((w) => w.name === "Moves")!.tabs.map((t) => t.name);
  const from = (await places()).length; // the replacement is built at the end, then moved to the old tab's place
  const at = (await places()).indexOf("old");
  // layout_apply replacing a tab: the new tab takes the old one's place among the tabs.
  const made = await s.v6({ type: "layout_apply", tab: old, name: "new", root: { type: "pane", cwd: "/tmp", command: ["cat"] } });
  const seen = await readUntil(c, (e) => e.event === "tab_moved");
  expect(seen.map((e) => e.event)).toEqual(["tab_moved"]);
  expect(seen[0]).toMatchObject({ workspace: "Moves", tab: made.tab, index: at, from: from - 1 });
  expect((await places()).indexOf("new")).toBe(at);
  c.close();
  await s.v6({ type: "workspace_close", name: "Moves" });
});

test("the shim's border settings publish pane_border_changed, not pane_renamed: the pane's label is the same", async () => {
  const pane = (await s.v6({ type: "tab_new", name: "bordered", cwd: "/tmp", command: ["cat"] })).pane;
  const tab = (await s.v6({ type: "pane_info", pane })).tab;
  const c = await subscribe({ types: ["pane_border_changed", "pane_renamed"], pane });
  expect((await c.nextJson()).type).toBe("subscribed");
  await s.v6({ type: "pane_border", pane, status: "top", format: "#{pane_title}" });
  await s.v6({ type: "pane_rename", pane, name: "named" }); // a real label change, after it
  const seen = await readUntil(c, (e) => e.event === "pane_renamed");
  expect(seen.map((e) => e.event)).toEqual(["pane_border_changed", "pane_renamed"]);
  expect(seen[0]).toMatchObject({ workspace: "main", tab, pane });
  expect(seen[1]).toMatchObject({ pane, name: "named", label: "named" });
  c.close();
  await s.v6({ type: "tab_close", tab: "bordered" });
});

test("events are v6's alone: a v5 client can't subscribe, so renaming an event changes no v1-v5 bytes", async () => {
  expect(await s.rawLine('{"v":5,"type":"subscribe","types":["tab_moved"]}\n')).toBe('error: invalid message: subscribe needs protocol version 6 (sent at "v":5)');
});

test("filters: types, workspace, pane; gap always comes", async () => {
  const c = await subscribe({ types: ["pane_created", "pane_exited"], workspace: "Live" });
  await c.next();
  await s.v6({ type: "tab_new", workspace: "main", cwd: "/tmp", command: ["cat"] }); // other workspace: not seen
  const p = (await s.v6({ type: "tab_new", workspace: "Live", cwd: "/tmp", command: ["sh", "-c", "exit 3"] })).pane;
  const [created] = await readUntil(c, () => true);
  expect(created).toMatchObject({ event: "pane_created", workspace: "Live", pane: p });
  const [exited] = await readUntil(c, () => true);
  expect(exited).toMatchObject({ event: "pane_exited", pane: p, exit_code: 3 });
  c.close();
  expect(await s.v6({ type: "subscribe", types: ["pane_creatd"] })).toMatchObject({ code: "invalid_params", hint: { param: "types", did_you_mean: "pane_created" } });
});

test("output events are opt-in and rate-limited, with no seq", async () => {
  const p = (await s.v6({ type: "tab_new", workspace: "Live", cwd: "/tmp", command: ["sh", "-c", "read x; for i in $(seq 1 400); do echo out-$i; done; exec cat"] })).pane;
  const all = await subscribe({ pane: p });
  const out = await subscribe({ pane: p, types: ["output"] });
  await all.next();
  await out.next();
  const t0 = Date.now();
  await s.v6({ type: "pane_send", pane: p, text: "", enter: true });
  await waitFor("the output", async () => (await s.v6({ type: "pane_read", pane: p })).text.includes("out-400"));
  await s.v6({ type: "wait_for", condition: "idle", pane: p, idle_ms: 300 });
  const elapsed = Date.now() - t0;
  await s.v6({ type: "pane_close", pane: p });
  const events: AnyReply[] = [];
  for (;;) {
    let line: AnyReply | string;
    try {
      line = await out.next(300);
    } catch {
      break;
    }
    if (typeof line === "string") throw new Error(`not an event: ${line}`);
    events.push(line);
  }
  const got = events;
  expect(got.length).toBeGreaterThan(0);
  for (const e of got) expect(e).toMatchObject({ type: "event", event: "output", pane: p });
  for (const e of got) expect(e.seq).toBeUndefined();
  expect(got.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
  const plain = await readUntil(all, (e) => e.event === "pane_closed");
  expect(plain.some((e) => e.event === "output")).toBe(false);
  all.close();
  out.close();
});

test("resuming from another boot, or from the future", async () => {
  const c = await subscribe({ after_seq: 1, boot_id: "not-this-boot" });
  expect((await c.nextJson()).type).toBe("subscribed");
  expect(await c.next()).toMatchObject({ event: "gap", reason: "boot_changed" });
  c.close();
  const seq = (await s.v6({ type: "hello" })).seq;
  expect(await s.v6({ type: "subscribe", after_seq: seq + 100 })).toMatchObject({ code: "invalid_params", hint: { param: "after_seq" } });
});

test("a flood to a reader that never reads: bounded memory, others unaffected, the reader gets a gap", async () => {
  const { pid } = await s.v6({ type: "hello" });
  const a = (await s.v6({ type: "tab_new", workspace: "main", name: "flood", cwd: "/tmp", command: ["cat"] })).pane;
  const b = (await s.v6({ type: "split", pane: a, cwd: "/tmp", command: ["cat"], focus: false })).pane;
  const stuck = await subscribe({ types: ["pane_focused", "workspace_created"] });
  // Subscribed (the ack is its proof) before the flood starts, then a reader that never reads.
  expect((await stuck.nextJson()).type).toBe("subscribed");
  stuck.pause();
  const before = rssKb(pid);
  // 12000 focus changes (one event each), pipelined on one connection, three times the retained 4096.
  const flooder = await Conn.open(s.sock);
  const N = 12000;
  let text = "";
  for (let i = 0; i < N; i++) text += JSON.stringify({ v: 6, id: i, type: "pane_focus", pane: i % 2 ? a : b }) + "\n";
  flooder.write(text);
  let answered = 0;
  const t0 = Date.now();
  let otherWorst = 0;
  while (answered < N) {
    await flooder.next(20000).catch((e) => { throw new Error(`flooder after ${answered}: ${e.message}`); });
    answered++;
    if (answered % 3000 === 0) {
      const h0 = Date.now();
      expect((await s.v6({ type: "hello" })).type).toBe("hello");
      otherWorst = Math.max(otherWorst, Date.now() - h0);
    }
  }
  const after = rssKb(pid);
  expect(Date.now() - t0).toBeLessThan(30000);
  expect(otherWorst).toBeLessThan(2000);
  // The ring holds 4096 small events and the stuck reader at most 128 KiB: far below this bound.
  expect(after - before).toBeLessThan(64 * 1024);
  await s.v6({ type: "workspace_new", name: "FloodOver" });
  stuck.resume();
  const got = await readUntil<AnyReply & { dropped?: number }>(stuck, (e) => e.event === "workspace_created" && e.workspace === "FloodOver", 20000);
  const events = got;
  const gaps = events.filter((e) => e.event === "gap");
  expect(gaps.length).toBeGreaterThanOrEqual(1);
  expect(gaps[0]).toMatchObject({ reason: "overflow" });
  expect(gaps[0]!.seq).toBeUndefined();
  expect(gaps[0]!.dropped).toBeGreaterThan(0);
  // Every event is accounted for exactly once: delivered, or inside a gap's range.
  const delivered = events.filter((e) => e.event !== "gap").map((e) => e.seq);
  expect(new Set(delivered).size).toBe(delivered.length);
  const dropped = gaps.reduce((n, g) => n + g.dropped!, 0);
  expect(delivered.length + dropped).toBe(N + 1);
  for (let i = 1; i < delivered.length; i++) expect(delivered[i]).toBeGreaterThan(delivered[i - 1]!);
  flooder.close();
  stuck.close();
}, 60_000);
