import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import {
  backupPath,
  CLAUDE_EVENTS,
  claudeCommand,
  installClaude,
  lineDiff,
  runHooks,
  uninstallClaude,
} from "../src/features/agents/hooks-install.ts";

const WS = ["/opt/ws dir/ws"]; // a path with a space: the command must quote it
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "ws-hooks-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// A settings file as a person writes it: 4-space indent, own hooks, other keys, no final newline.
const userSettings = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test:*)"] },
    "hooks": {
        "Stop": [
            { "hooks": [ { "type": "command", "command": "afplay /System/Library/Sounds/Glass.aiff" } ] }
        ],
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/check-bash.sh" } ] }
        ]
    }
}`;

describe("claude settings.json", () => {
  test("install keeps the user's hooks and keys and adds one group per event", () => {
    const file = join(dir, "settings.json");
    writeFileSync(file, userSettings);
    const msg = runHooks({ action: "install", target: "claude", file, ws: WS });
    expect(msg).toContain("installed ws hooks");
    const after = JSON.parse(readFileSync(file, "utf8"));
    expect(after.model).toBe("opus");
    expect(after.permissions).toEqual({ allow: ["Bash(npm test:*)"] });
    expect(after.hooks.Stop[0].hooks[0].command).toBe("afplay /System/Library/Sounds/Glass.aiff");
    expect(after.hooks.PreToolUse[0]).toEqual({ matcher: "Bash", hooks: [{ type: "command", command: "~/bin/check-bash.sh" }] });
    for (const event of CLAUDE_EVENTS) {
      const ours = after.hooks[event].filter((g: any) => g.hooks.some((h: any) => h.command.includes(" report ")));
      expect(ours).toHaveLength(1);
      expect(ours[0].hooks[0]).toEqual({ type: "command", command: `'/opt/ws dir/ws' report ${event} --agent claude` });
    }
    expect(after.hooks.PreToolUse[1].matcher).toBe("*");
    expect(readFileSync(backupPath(file), "utf8")).toBe(userSettings);
    expect(readFileSync(file, "utf8")).toContain('\n    "model"'); // the file's own indent
    // Installing twice changes nothing.
    const once = readFileSync(file, "utf8");
    expect(runHooks({ action: "install", target: "claude", file, ws: WS })).toContain("already installed");
    expect(readFileSync(file, "utf8")).toBe(once);
  });

  test("uninstall restores the file byte for byte and removes the backup", () => {
    const file = join(dir, "settings.json");
    writeFileSync(file, userSettings);
    runHooks({ action: "install", target: "claude", file, ws: WS });
    expect(readFileSync(file, "utf8")).not.toBe(userSettings);
    runHooks({ action: "uninstall", target: "claude", file, ws: WS });
    expect(readFileSync(file, "utf8")).toBe(userSettings);
    expect(existsSync(backupPath(file))).toBe(false);
  });

  test("uninstall after the user edited the file removes only ws's hooks", () => {
    const file = join(dir, "settings.json");
    writeFileSync(file, userSettings);
    runHooks({ action: "install", target: "claude", file, ws: WS });
    const edited = JSON.parse(readFileSync(file, "utf8"));
    edited.theme = "dark";
    edited.hooks.Stop[0].hooks.push({ type: "command", command: "say done" });
    writeFileSync(file, JSON.stringify(edited, null, 4));
    runHooks({ action: "uninstall", target: "claude", file, ws: ["/elsewhere/ws"] }); // ws moved since
    const after = JSON.parse(readFileSync(file, "utf8"));
    const want = JSON.parse(userSettings);
    want.theme = "dark";
    want.hooks.Stop[0].hooks.push({ type: "command", command: "say done" });
    expect(after).toEqual(want);
  });

  test("a file that did not exist is created, then removed again", () => {
    const file = join(dir, "sub", "settings.json");
    runHooks({ action: "install", target: "claude", file, ws: WS });
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).hooks)).toEqual([...CLAUDE_EVENTS]);
    runHooks({ action: "uninstall", target: "claude", file, ws: WS });
    expect(existsSync(file)).toBe(false);
  });

  test("--dry-run prints the change and writes nothing", () => {
    const file = join(dir, "settings.json");
    writeFileSync(file, userSettings);
    const msg = runHooks({ action: "install", target: "claude", file, ws: WS, dryRun: true });
    expect(msg).toContain("dry run");
    expect(msg).toContain(`+ `);
    expect(msg).toContain("report Stop --agent claude");
    expect(readFileSync(file, "utf8")).toBe(userSettings);
    expect(existsSync(backupPath(file))).toBe(false);
  });

  test("refuses broken files instead of clobbering them", () => {
    expect(() => installClaude("{ not json", WS)).toThrow(/not valid JSON/);
    expect(() => installClaude('{"hooks": []}', WS)).toThrow(/not an object/);
    expect(() => installClaude('{"hooks": {"Stop": {}}}', WS)).toThrow(/not a list/);
  });

  test("a user hook that merely mentions report is not ours", () => {
    const text = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "make report" }] }] } });
    expect(uninstallClaude(text)).toBe(text);
    expect(claudeCommand(["/usr/bin/ws"], "Stop")).toBe("/usr/bin/ws report Stop --agent claude");
  });
});

describe("codex config.toml", () => {
  const userToml = `# my codex config
model = "o3"
approval_policy = "on-request"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--port", "0"]
`;

  test("install adds a top-level notify, keeps the rest; uninstall restores exactly", () => {
    const file = join(dir, "config.toml");
    writeFileSync(file, userToml);
    runHooks({ action: "install", target: "codex", file, ws: WS });
    const text = readFileSync(file, "utf8");
    const parsed = parseToml(text) as any;
    expect(parsed.notify).toEqual([...WS, "report", "--agent", "codex"]);
    expect(parsed.model).toBe("o3");
    expect(parsed.mcp_servers.docs.args).toEqual(["--port", "0"]);
    expect(text.endsWith(userToml)).toBe(true);
    runHooks({ action: "uninstall", target: "codex", file, ws: WS });
    expect(readFileSync(file, "utf8")).toBe(userToml);
  });

  test("a user's own notify keeps running behind ws, and comes back on uninstall", () => {
    const file = join(dir, "config.toml");
    const withNotify = `model = "o3"\nnotify = [\n  "python3",\n  "/home/me/notify.py",\n]\n\n[tui]\nnotifications = true\n`;
    writeFileSync(file, withNotify);
    runHooks({ action: "install", target: "codex", file, ws: WS });
    const parsed = parseToml(readFileSync(file, "utf8")) as any;
    expect(parsed.notify).toEqual([...WS, "report", "--agent", "codex", "--", "python3", "/home/me/notify.py"]);
    expect(parsed.tui).toEqual({ notifications: true });
    // Edited since install: the structural path still gives the user's notify back.
    writeFileSync(file, readFileSync(file, "utf8") + "# later edit\n");
    runHooks({ action: "uninstall", target: "codex", file, ws: WS });
    const back = parseToml(readFileSync(file, "utf8")) as any;
    expect(back.notify).toEqual(["python3", "/home/me/notify.py"]);
    expect(readFileSync(file, "utf8")).toContain("# later edit");
  });
});

test("lineDiff", () => {
  expect(lineDiff("a\nb\nc\n", "a\nx\nc\n")).toBe("- b\n+ x");
  expect(lineDiff("", "a\n")).toBe("+ a");
});
