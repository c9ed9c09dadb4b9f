// notify: the attached client's status line shows it (ws attach in tmux), the outer terminal gets
// OSC 9 and OSC 777 (what ws attach writes to tmux, kept with pipe-pane), subscribers get a
// notification event, and a caller's control characters reach none of them.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Conn, waitFor, wsArgv } from "./harness";
import { serverWithTmux } from "./tmux-driver";

const { s, tmux } = serverWithTmux();

async function subscribe(): Promise<Conn> {
  const c = await Conn.open(s.sock);
  c.send({ v: 6, id: "sub", type: "subscribe", types: ["notification"] });
  expect((await c.nextJson()).type).toBe("subscribed");
  return c;
}

test("without a client: subscribers get the event, the CLI says nobody saw it", async () => {
  const c = await subscribe();
  const r = await s.run(["notify", "nobody home", "--body", "b"]);
  expect(r).toMatchObject({ code: 0, stdout: "no client is attached: only event subscribers got it\n" });
  expect(await c.next()).toMatchObject({ type: "event", event: "notification", title: "nobody home", body: "b" });
  c.close();
});

test("notify shows on the status line, reaches the outer terminal and subscribers; control characters don't", async () => {
  const raw = join(s.root, "attach-output");
  await tmux.open("n", `${wsArgv().join(" ")} attach; sleep 3600`);
  await tmux.tmux("pipe-pane", "-o", "-t", "=n:", `cat >> ${raw}`);
  await tmux.waitFor("n", /\[main\] tab \d+\/\d+/);
  const pane = (await s.list())[0]!.tabs[0]!.panes[0];
  const c = await subscribe();

  const reply = await s.v6({ id: 1, type: "notify", title: "build\x1b]0;evil\x07 done", body: "all\ngreen\u202e", pane });
  expect(reply).toMatchObject({ type: "notified", attached: true });
  const shown = `pane ${pane}: build ]0;evil  done: all green`;
  await tmux.waitFor("n", (screen) => screen.trimEnd().split("\n").at(-1)!.includes(shown));

  const ev = await c.nextJson();
  expect(ev).toMatchObject({ event: "notification", title: "build ]0;evil  done", body: "all green ", pane, workspace: "main" });
  expect(typeof ev.seq).toBe("number");

  await waitFor("OSC 9 and OSC 777 on the outer terminal", () => {
    const out = readFileSync(raw, "latin1");
    return out.includes("\x1b]9;build ]0;evil  done: all green \x07") && out.includes("\x1b]777;notify;build ]0,evil  done;all green \x07"); // OSC 777's title has no ";"
  });
  const out = readFileSync(raw, "utf8");
  expect(out).not.toContain("\x1b]0;evil");
  expect(out).not.toContain("\u202e");

  // The CLI sends the same, and after a few seconds the status line is clear again.
  await s.ok(["notify", "second one", "--body", "from the CLI"]);
  await tmux.waitFor("n", (screen) => screen.trimEnd().split("\n").at(-1)!.includes("second one: from the CLI"));
  expect(await c.next()).toMatchObject({ event: "notification", title: "second one", body: "from the CLI" });
  await tmux.waitFor("n", (screen) => !screen.includes("second one") && screen.includes("C-Space ? help"), 9000);
  c.close();
}, 30_000);

test("bad notifications are refused and send nothing", async () => {
  const c = await subscribe();
  const ask = (f: Record<string, unknown>) => s.v6({ id: 2, type: "notify", ...f });
  expect((await ask({ title: "" })).code).toBe("invalid_params");
  expect((await ask({ title: "x".repeat(257) })).code).toBe("invalid_params");
  expect((await ask({ title: "t", body: "x".repeat(4097) })).code).toBe("invalid_params");
  expect((await ask({ title: "t", pane: 9999 })).code).toBe("pane_not_found");
  expect((await s.run(["notify"])).code).toBe(2);
  // The next event is this one: none of the refused ones went out.
  await ask({ title: "marker" });
  expect(await c.next()).toMatchObject({ event: "notification", title: "marker" });
  c.close();
});
