// The server's notifications away from the terminal (docs/notify.md "Push"): an approval waiting
// and a `ws ask` question reach a subscribed phone (through a stand-in push service that checks the
// VAPID signature and decrypts), keys.toml's push.command and push.url (ntfy's form), saying
// nothing secret; past push.rate a minute, each destination drops the rest.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { listSubscriptions, subscribe } from "../src/features/push";
import { readPushConfig } from "../src/features/push/config";
import { noticeFor } from "../src/features/push/notices";
import { Conn, TestServer, waitFor, writtenLines } from "./harness";
import { type PushService, startPushService } from "./push-service";

interface NtfyPost {
  query: Record<string, string>;
  auth: string | null;
  body: string;
}

describe("push from the server", () => {
  let s: TestServer;
  let service: PushService;
  let ntfy: ReturnType<typeof Bun.serve>;
  const posts: NtfyPost[] = [];
  let commandLog: string;
  let pane: number;
  let approval: Conn;

  beforeAll(async () => {
    service = startPushService();
    ntfy = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        posts.push({ query: Object.fromEntries(new URL(req.url).searchParams), auth: req.headers.get("authorization"), body: await req.text() });
        return new Response("{}");
      },
    });
    s = new TestServer();
    commandLog = join(s.root, "command.log");
    s.writeKeys(`[push]
command = ["sh", "-c", 'printf "%s|%s|%s|%s\\n" "$1" "$2" "$WS_PUSH_EVENT" "$WS_PUSH_CLICK" >> "$0"', ${JSON.stringify(commandLog)}]
url = "http://127.0.0.1:${ntfy.port}/ws-topic"
headers = { Authorization = "Bearer tk_123" }
click = "https://laptop.example:7681/phone"
rate = 3
`);
    // The phone subscribed through ws web's page before (subscriptions are kept in the state dir).
    subscribe(service.subscription("phone"), { XDG_STATE_HOME: s.env.XDG_STATE_HOME });
    await s.start();
    pane = (await s.call({ type: "tab_new", name: "agent", cwd: s.root, command: ["sleep", "600"] })).pane as number;
  }, 60_000);

  afterAll(async () => {
    approval?.close();
    await s.stop();
    service.stop();
    ntfy.stop(true);
  });

  const commandLines = () => writtenLines(commandLog);
  const all = (n: number) => service.received.length >= n && posts.length >= n && commandLines().length >= n;

  test("an approval waiting reaches the phone, the command and the ntfy endpoint, without the command it asks to run", async () => {
    approval = await Conn.open(s.sock);
    approval.send({ v: 6, id: 1, type: "approval_request", pane, agent: "claude", payload: { tool_name: "Bash", tool_input: { command: "curl -H 'X-Token: hunter2' deploy" } }, timeout: 120_000 });
    await waitFor("the approval's notifications", () => all(1), 20_000);
    expect(service.refused).toEqual([]);
    const phone = service.received[0]!.payload as Record<string, string>;
    expect(phone).toMatchObject({ title: "ws: approval waiting", url: "/phone", tag: `approval-${pane}` });
    expect(phone.body).toBe(`pane ${pane} (claude) asks to use Bash`);
    // Tapping an ntfy or a command's notification leads where push.click says (ws web's phone page).
    const click = "https://laptop.example:7681/phone";
    expect(posts[0]).toMatchObject({ query: { title: "ws: approval waiting", tags: "approval", priority: "high", click }, auth: "Bearer tk_123", body: phone.body });
    expect(commandLines()[0]).toBe(`ws: approval waiting|${phone.body}|approval|${click}`);
    const everything = JSON.stringify([service.received, posts, commandLines()]);
    expect(everything).not.toContain("hunter2");
  });

  test("a ws ask question does too, without its text; past push.rate a minute the rest are dropped", async () => {
    const r = await s.run(["ask", "what is the deploy password?", "--timeout", "100"]);
    expect(r.code).toBe(124);
    await waitFor("the question's notifications", () => all(2), 20_000);
    expect(service.received[1]!.payload).toMatchObject({ title: "ws: a question for you", body: "a script asks a question" });
    expect(JSON.stringify([service.received, posts, commandLines()])).not.toContain("password");
    // Three more: rate = 3 lets one through and drops two, at each destination.
    for (let i = 0; i < 3; i++) expect((await s.run(["ask", `q${i}`, "--timeout", "50"])).code).toBe(124);
    await waitFor("two notifications dropped at each destination", () => (s.serverLogTail(200).match(/over its rate limit/g)?.length ?? 0) >= 6, 20_000);
    await waitFor("the third notification", () => all(3), 20_000);
    expect([service.received.length, posts.length, commandLines().length]).toEqual([3, 3, 3]);
  });

  test("ws push test sends one to every destination now and says how each went; a phone whose subscription is gone is forgotten", async () => {
    const out = await s.ok(["push", "test"]);
    expect(out).toContain(`sent: web push ${service.url}: 201`);
    expect(out).toContain("sent: push.command sh: exit 0");
    expect(out).toContain(`sent: push.url http://127.0.0.1:${ntfy.port}: 200`);
    await waitFor("the test notification everywhere", () => all(4));
    expect(service.received[3]!.payload).toMatchObject({ title: "ws: a test notification", url: "/phone" });
    service.answer("phone", 410);
    const gone = await s.run(["push", "test"]);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain("failed: web push");
    expect(gone.stdout).toContain("the subscription is gone, forgotten");
    expect(listSubscriptions({ XDG_STATE_HOME: s.env.XDG_STATE_HOME })).toEqual([]);
  });
});

test("push.details = true puts the request's text in, made safe; bad settings are named", () => {
  const e = { type: "question_asked" as const, id: 4, pane: 2, question: "deploy\x1b]52;c;x\x07 now?", choices: [] };
  expect(noticeFor(e, () => "claude", false)!.body).toBe("pane 2 (claude) asks a question");
  expect(noticeFor(e, () => "claude", true)!.body).toBe("pane 2 (claude) asks: deploy ]52;c;x  now?");
  expect(readPushConfig({ rate: 0, url: "ftp://x", events: ["nope"], colour: 1 }).problems).toHaveLength(4);
  expect(readPushConfig({ click: "javascript:alert(1)" }).problems).toEqual(["push.click must be an http or https URL"]);
  expect(readPushConfig({ events: ["approval"] }).config.events).toEqual(new Set(["approval"]));
});

test("ws notify's own words go out only with \"notify\" in push.events", () => {
  const e = { type: "notification" as const, title: "tests passed", body: "412 in 38 s", pane: 3 };
  expect(readPushConfig(undefined).config.events.has("notify")).toBe(false);
  expect(readPushConfig({ events: ["notify"] }).config.events.has("notify")).toBe(true);
  expect(noticeFor(e, () => undefined, false)).toMatchObject({ event: "notify", title: "ws: tests passed", body: "412 in 38 s" });
});

describe("push on an agent's status", () => {
  let s: TestServer;
  let log: string;
  beforeAll(async () => {
    s = new TestServer();
    log = join(s.root, "agent.log");
    s.writeKeys(`[push]\ncommand = ["sh", "-c", 'printf "%s|%s|%s\\n" "$1" "$2" "$WS_PUSH_PANE" >> "$0"', ${JSON.stringify(log)}]\n`);
    await s.start();
  }, 60_000);
  afterAll(() => s.stop());
  const lines = () => writtenLines(log);

  test("an agent done with its turn, then blocked on a permission, each sends one, naming the pane and nothing of its message", async () => {
    const pane = (await s.call({ type: "tab_new", name: "agent", cwd: s.root, command: ["sleep", "600"] })).pane as number;
    const report = (event: string, payload: Record<string, unknown>) => s.v6({ type: "report", pane, agent: "claude", event, payload });
    await report("UserPromptSubmit", { prompt: "deploy with key sk-live-42" });
    await report("Stop", {});
    await waitFor("the done notification", () => lines().length >= 1);
    expect(lines()[0]).toMatch(new RegExp(`^ws: an agent is done\\|pane ${pane}( \\(\\w+\\))? finished its turn\\|${pane}$`));
    await report("UserPromptSubmit", {});
    await report("PermissionRequest", { tool_name: "Bash", tool_input: { command: "echo sk-live-42" } });
    await waitFor("the blocked notification", () => lines().length >= 2);
    expect(lines()[1]).toMatch(new RegExp(`^ws: an agent is waiting for you\\|pane ${pane}( \\(\\w+\\))? is blocked\\|${pane}$`));
    expect(lines().join("\n")).not.toContain("sk-live");
  });
});
