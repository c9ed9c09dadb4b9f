import { describe, expect, test } from "bun:test";
import { mapEvent } from "../src/features/agents/status-map.ts";
import { AgentStore, secsIn } from "../src/features/agents/store.ts";

// Payloads as Claude Code and Codex send them (trimmed to the fields that matter, plus the common ones).
const base = { session_id: "abc123", transcript_path: "/home/u/.claude/projects/x/abc123.jsonl", cwd: "/code/app" };
const claude = {
  SessionStart: { ...base, hook_event_name: "SessionStart", source: "startup" },
  UserPromptSubmit: { ...base, hook_event_name: "UserPromptSubmit", prompt: "fix the tests" },
  PreToolUse: { ...base, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "npm test" } },
  PostToolUse: { ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_response: { stdout: "ok" } },
  permission: {
    ...base,
    hook_event_name: "Notification",
    message: "Claude needs your permission to use Bash",
    notification_type: "permission_prompt",
  },
  idle: { ...base, hook_event_name: "Notification", message: "Claude is waiting for your input", notification_type: "idle_prompt" },
  Stop: { ...base, hook_event_name: "Stop", stop_hook_active: false },
  SubagentStop: { ...base, hook_event_name: "SubagentStop", stop_hook_active: false },
  SessionEnd: { ...base, hook_event_name: "SessionEnd", reason: "exit" },
};
const codexTurn = {
  type: "agent-turn-complete",
  "thread-id": "t1",
  "turn-id": "12345",
  cwd: "/code/app",
  "input-messages": ["Rename foo to bar"],
  "last-assistant-message": "Rename complete and verified `cargo build` succeeds.\nMore text",
};

describe("status map", () => {
  test("Claude Code events", () => {
    expect(mapEvent("claude", "SessionStart", claude.SessionStart)).toEqual({ status: "idle" });
    expect(mapEvent("claude", "UserPromptSubmit", claude.UserPromptSubmit)).toEqual({ status: "working" });
    expect(mapEvent("claude", "PreToolUse", claude.PreToolUse)).toEqual({ status: "working", detail: "Bash" });
    expect(mapEvent("claude", "PostToolUse", claude.PostToolUse)).toEqual({ status: "working" });
    expect(mapEvent("claude", "Notification", claude.permission)).toEqual({
      status: "blocked",
      detail: "Claude needs your permission to use Bash",
    });
    expect(mapEvent("claude", "Notification", claude.idle, "working")).toEqual({ status: "done" });
    expect(mapEvent("claude", "Notification", claude.idle, "idle")).toEqual({ status: "idle" });
    expect(mapEvent("claude", "Stop", claude.Stop)).toEqual({ status: "done" });
    expect(mapEvent("claude", "SubagentStop", claude.SubagentStop, "working")).toEqual({ status: "working" });
    expect(mapEvent("claude", "SubagentStop", claude.SubagentStop, "done")).toBeNull();
    expect(mapEvent("claude", "SessionEnd", claude.SessionEnd)).toEqual({ clear: true });
  });

  test("older Notification payloads without notification_type", () => {
    const { notification_type: _, ...old } = claude.permission;
    expect(mapEvent("claude", "Notification", old)).toMatchObject({ status: "blocked" });
    expect(mapEvent("claude", "Notification", { ...base, message: "Authenticated", notification_type: "auth_success" })).toBeNull();
  });

  test("Codex notify", () => {
    expect(mapEvent("codex", "agent-turn-complete", codexTurn)).toEqual({
      status: "done",
      detail: "Rename complete and verified `cargo build` succeeds.",
    });
  });

  test("unknown agent or event, hostile names", () => {
    expect(mapEvent(undefined, "Stop", {})).toEqual({ status: "done" });
    expect(mapEvent("gemini", "PreToolUse", { tool_name: "Edit" })).toEqual({ status: "working", detail: "Edit" });
    expect(mapEvent("claude", "NoSuchEvent", {})).toBeNull();
    expect(mapEvent("constructor", "toString", {})).toBeNull();
    expect(mapEvent("claude", "__proto__", null)).toBeNull();
    expect(mapEvent("claude", "PreToolUse", "not an object")).toEqual({ status: "working" });
  });
});

describe("agent store", () => {
  test("since counts time in one status, across detail changes", () => {
    const s = new AgentStore();
    s.report(1, "claude", "UserPromptSubmit", {}, 1_000);
    s.report(1, "claude", "PreToolUse", { tool_name: "Read" }, 3_000);
    expect(s.get(1)).toMatchObject({ status: "working", detail: "Read", since: 1_000, agent: "claude" });
    expect(secsIn(s.get(1)!, 8_500)).toBe(7);
    s.report(1, "claude", "Stop", {}, 9_000);
    expect(s.get(1)).toMatchObject({ status: "done", since: 9_000 });
  });

  test("done turns idle when seen; idle prompt then stays idle", () => {
    const s = new AgentStore();
    const changes: string[] = [];
    s.onChange((c) => changes.push(`${c.pane}:${c.before ?? "-"}>${c.after ?? "-"}`));
    s.report(2, "claude", "Stop", {}, 0);
    expect(s.seen(2, 5_000)).toMatchObject({ before: "done", after: "idle" });
    expect(s.seen(2, 6_000)).toBeNull();
    s.report(2, "claude", "Notification", claude.idle, 60_000);
    expect(s.get(2)).toMatchObject({ status: "idle", since: 5_000 });
    expect(changes).toEqual(["2:->done", "2:done>idle"]);
  });

  test("SessionEnd, pane close and agent exit clear the status", () => {
    const s = new AgentStore();
    s.report(1, "claude", "SessionStart", {});
    s.report(1, "claude", "SessionEnd", {});
    expect(s.get(1)).toBeUndefined();
    s.report(2, "claude", "Stop", {});
    s.report(3, "claude", "Stop", {});
    s.setPid(2, 100);
    s.setPid(3, 200);
    expect(s.reap((pid) => pid !== 100).map((c) => c.pane)).toEqual([2]);
    expect(s.get(3)?.status).toBe("done");
    expect(s.clear(3)).toMatchObject({ pane: 3, before: "done" });
    expect(s.all()).toEqual([]);
  });

  test("ranked: blocked, done, working, idle; longest waiting first", () => {
    const s = new AgentStore();
    s.report(1, "claude", "SessionStart", {}, 10);
    s.report(2, "claude", "UserPromptSubmit", {}, 20);
    s.report(3, "claude", "Stop", {}, 30);
    s.report(4, "claude", "Notification", claude.permission, 40);
    s.report(5, "claude", "Stop", {}, 25);
    s.report(6, "claude", "Notification", claude.permission, 50);
    expect(s.ranked().map((a) => a.pane)).toEqual([4, 6, 5, 3, 2, 1]);
  });
});
