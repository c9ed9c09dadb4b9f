// The real opencode (npm opencode-ai, installed into a temporary prefix; skipped with a message
// where npm's registry can't be reached) in a ws pane, told by its screen (it has no hooks ws can
// install): detected by its program, idle and working shown, a prompt queued --when idle typed when
// its turn ends, and its permission prompt in the inbox, answered from ws by typing its keys. It
// runs offline: its model is a stand-in OpenAI-compatible endpoint on 127.0.0.1 in this test,
// which asks for a shell command (a bash tool call, which opencode's config makes ask permission),
// then answers "All done." once the command's result comes back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestServer, waitFor } from "./harness";
import { npmAgent } from "./npm-agent";

interface ChatRequest {
  messages: { role: string; content: unknown }[];
  tools?: unknown[];
}

/** The stand-in model: every request it got, and a gate the first turn's request waits at. */
function standInModel() {
  const requests: ChatRequest[] = [];
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => (open = r));
  let held = false;
  let n = 0;
  const sse = (chunks: unknown[]) =>
    new Response(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (!new URL(req.url).pathname.endsWith("/chat/completions")) return new Response("{}", { status: 404 });
      const body = (await req.json()) as ChatRequest;
      const base = { id: `c${++n}`, object: "chat.completion.chunk", created: 0, model: "m" };
      const text = (t: string) => sse([{ ...base, choices: [{ index: 0, delta: { role: "assistant", content: t }, finish_reason: null }] }, { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }]);
      // A title for the session (no tools): at once.
      if (!body.tools?.length) return text("Greeting");
      requests.push(body);
      const last = body.messages[body.messages.length - 1];
      if (last?.role === "tool") return text("All done.");
      // The first turn waits at the gate, so the test sees it working.
      if (!held) {
        held = true;
        await gate;
      }
      const call = { index: 0, id: `call_${n}`, type: "function", function: { name: "bash", arguments: JSON.stringify({ command: "echo hi-from-tool", description: "Say hi" }) } };
      return sse([{ ...base, choices: [{ index: 0, delta: { role: "assistant", tool_calls: [call] }, finish_reason: null }] }, { ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }]);
    },
  });
  return { server, requests, release: () => open() };
}

describe("the real opencode, told by its screen", () => {
  let s: TestServer;
  const model = standInModel();
  beforeAll(async () => {
    s = new TestServer();
    await s.start();
  }, 30_000);
  afterAll(async () => {
    model.release();
    model.server.stop(true);
    await s.stop();
  }, 30_000);

  const row = async (pane: number) => (await s.call({ type: "agent_list" })).agents.find((a) => a.pane === pane);
  const waitStatus = (pane: number, status: string, ms = 120_000) => waitFor(`opencode in pane ${pane} ${status}`, async () => ((await row(pane))?.status === status ? row(pane) : undefined), ms, 200);
  const inbox = async () => (await s.call({ type: "approval_list" })).approvals as { id: number; pane: number; agent?: string; tool: string; summary: string }[];
  const lastUser = (r: ChatRequest) => JSON.stringify([...r.messages].reverse().find((m) => m.role === "user")?.content ?? "");

  test("detected, idle and working shown, its permission prompt answered from ws, a prompt queued --when idle typed when the turn ends", async () => {
    const agent = npmAgent("opencode-ai", "opencode", "ws-test-opencode");
    const why = await agent.install();
    if (why) return console.warn(`skipped: ${why}`);
    const proj = join(s.root, "proj");
    mkdirSync(proj, { recursive: true });
    writeFileSync(
      join(proj, "opencode.json"),
      JSON.stringify({
        provider: { local: { npm: "@ai-sdk/openai-compatible", name: "Stand-in", options: { baseURL: `http://127.0.0.1:${model.server.port}/v1`, apiKey: "offline-never-sent" }, models: { m: { name: "M", tool_call: true } } } },
        model: "local/m",
        permission: { bash: "ask" },
      }),
    );
    const argv = ["env", "TERM=xterm-256color", "COLORTERM=truecolor", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", agent.bin];
    const pane = Number((await s.ok(["tab", "new", "--cwd", proj, "--", ...argv])).trim());

    // Detected by its program once its screen shows it waiting for input.
    expect(await waitStatus(pane, "idle", 180_000)).toMatchObject({ agent: "opencode", pane });
    expect(await s.ok(["agent", "list"])).toMatch(new RegExp(`idle .* pane ${pane} .*· opencode`));

    // A turn: working while the model's answer is held back; a prompt queued for its end waits.
    await s.ok(["agent", "send", "--to", String(pane), "run the greeting"]);
    await waitStatus(pane, "working");
    expect(await s.v6({ type: "agent_send", to: String(pane), text: "second task", when: "idle" })).toMatchObject({ queued: true });
    model.release();

    // Its permission prompt for the command: blocked, and an inbox item; ws approve types Enter.
    const [item] = await waitFor("opencode's prompt in the inbox", async () => ((await inbox()).length ? inbox() : undefined), 120_000, 200);
    expect(item).toMatchObject({ pane, agent: "opencode", tool: "△ Permission required" });
    expect(item!.summary).toContain("$ echo hi-from-tool");
    expect((await row(pane))?.status).toBe("blocked");
    await s.ok(["approve", String(item!.id)]);
    await waitFor("the command's result at the model", () => model.requests.some((r) => r.messages.at(-1)?.role === "tool"), 120_000, 200);
    await s.waitScreen(pane, "All done.", 120_000);

    // The turn ended: the queued prompt was typed, and opencode sent it to the model.
    await waitFor("the queued prompt at the model", () => model.requests.some((r) => lastUser(r).includes("second task")), 120_000, 200);
    expect((await s.call({ type: "agent_queue_list" })).prompts).toEqual([]);

    // It asks again; deny types Esc, which rejects, and the turn ends: done.
    const [again] = await waitFor("the second prompt in the inbox", async () => {
      const list = await inbox();
      return list.length && list[0]!.id !== item!.id ? list : undefined;
    }, 120_000, 200);
    await s.ok(["deny", String(again!.id)]);
    expect(await waitStatus(pane, "done")).toMatchObject({ agent: "opencode" });
    expect(await inbox()).toEqual([]);
    await s.ok(["pane", "close", String(pane)]);
  }, 600_000);
});
