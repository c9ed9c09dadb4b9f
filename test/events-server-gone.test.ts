// `ws events` ends only when the server closes the stream: a script reading it must see that as a
// failure (exit 1 and a message), whether the server was stopped or killed.
import { expect, test } from "bun:test";
import { TestServer, waitFor, wsArgv } from "./harness";

async function eventsUntilGone(s: TestServer, stop: () => Promise<void>) {
  const events = Bun.spawn([...wsArgv(), "events"], { env: s.env, cwd: s.root, stdout: "pipe", stderr: "pipe" });
  let err = "";
  const dec = new TextDecoder();
  const reading = (async () => {
    for await (const c of events.stderr) err += dec.decode(c);
  })();
  try {
    await waitFor("the subscription", () => err.includes("# subscribed"), 30_000);
    await stop();
    const code = await events.exited;
    await reading;
    return { code, err };
  } finally {
    events.kill();
  }
}

test("ws events exits 1 with a message when the server is stopped (kill-server)", async () => {
  const s = await new TestServer().start();
  try {
    const r = await eventsUntilGone(s, async () => void (await s.ok(["kill-server"])));
    expect(r.code).toBe(1);
    expect(r.err).toContain("ws: the server closed the event stream");
  } finally {
    s.stop();
  }
}, 60_000);

test("ws events exits 1 with a message when the server is killed (SIGKILL)", async () => {
  const s = await new TestServer().start();
  try {
    const r = await eventsUntilGone(s, async () => void process.kill(s.daemonPid()!, "SIGKILL"));
    expect(r.code).toBe(1);
    expect(r.err).toContain("ws: the server closed the event stream");
  } finally {
    s.stop();
  }
}, 60_000);
