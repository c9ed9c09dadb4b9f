import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import {
  backupPath,
  CLAUDE_EVENTS,
  PERMISSION_EVENT,
  PERMISSION_HOOK_TIMEOUT_S,
  claudeCommand,
  CODEX_PERMISSION_HOOK_TIMEOUT_S,
  codexApprovalCommand,
  installClaude,
  lineDiff,
  runHooks,
  uninstallClaude,
} from "../src/features/agents/hooks-install.ts";
import { TestServer } from "./harness";

/** One group of hooks in a Claude settings.json or a Codex hooks.json. */
interface HookGroup {
  matcher?: string;
  hooks: { type: string; command: string }[];
}

/** The parts of a Codex config.toml these tests read. */
interface CodexConfig {
  notify?: string[];
  model?: string;
  tui?: Record<string, unknown>;
  mcp_servers?: Record<string, { args?: string[] }>;
}

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
      const ours = after.hooks[event].filter((g: HookGroup) => g.hooks.some((h) => h.command.includes(" report ")));
      expect(ours).toHaveLength(1);
      expect(ours[0].hooks[0]).toEqual({ type: "command", command: `'/opt/ws dir/ws' report ${event} --agent claude` });
    }
    expect(after.hooks.PreToolUse[1].matcher).toBe("*");
    // The approvals inbox's hook, with a time limit above its own wait.
    expect(after.hooks[PERMISSION_EVENT]).toEqual([
      { matcher: "*", hooks: [{ type: "command", command: "'/opt/ws dir/ws' approval-hook --agent claude", timeout: PERMISSION_HOOK_TIMEOUT_S }] },
    ]);
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
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).hooks)).toEqual([...CLAUDE_EVENTS, PERMISSION_EVENT]);
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
    const parsed = parseToml(text) as CodexConfig;
    expect(parsed.notify).toEqual([...WS, "report", "--agent", "codex"]);
    expect(parsed.model).toBe("o3");
    expect(parsed.mcp_servers?.docs?.args).toEqual(["--port", "0"]);
    expect(text.endsWith(userToml)).toBe(true);
    runHooks({ action: "uninstall", target: "codex", file, ws: WS });
    expect(readFileSync(file, "utf8")).toBe(userToml);
  });

  test("a user's own notify keeps running behind ws, and comes back on uninstall", () => {
    const file = join(dir, "config.toml");
    const withNotify = `model = "o3"\nnotify = [\n  "python3",\n  "/home/me/notify.py",\n]\n\n[tui]\nnotifications = true\n`;
    writeFileSync(file, withNotify);
    runHooks({ action: "install", target: "codex", file, ws: WS });
    const parsed = parseToml(readFileSync(file, "utf8")) as CodexConfig;
    expect(parsed.notify).toEqual([...WS, "report", "--agent", "codex", "--", "python3", "/home/me/notify.py"]);
    expect(parsed.tui).toEqual({ notifications: true });
    // Edited since install: the structural path still gives the user's notify back.
    writeFileSync(file, readFileSync(file, "utf8") + "# later edit\n");
    runHooks({ action: "uninstall", target: "codex", file, ws: WS });
    const back = parseToml(readFileSync(file, "utf8")) as CodexConfig;
    expect(back.notify).toEqual(["python3", "/home/me/notify.py"]);
    expect(readFileSync(file, "utf8")).toContain("# later edit");
  });
});

describe("codex hooks.json (the approvals hook)", () => {
  // As a person writes it: their own hooks for other events and for PermissionRequest.
  const userHooks = `{
  "hooks": {
    "PermissionRequest": [
      { "matcher": "^Bash$", "hooks": [ { "type": "command", "command": "~/bin/policy.sh", "timeout": 5 } ] }
    ],
    "Stop": [ { "hooks": [ { "type": "command", "command": "notify-send done" } ] } ]
  }
}
`;

  test("install adds a PermissionRequest group beside config.toml's notify; the user's hooks stay; uninstall restores exactly", () => {
    const file = join(dir, "config.toml");
    writeFileSync(file, `model = "o3"\n`);
    writeFileSync(join(dir, "hooks.json"), userHooks);
    const out = runHooks({ action: "install", target: "codex", file, ws: WS });
    expect(out).toContain(join(dir, "hooks.json"));
    expect(out).toContain("open /hooks in Codex"); // Codex runs a new hook only once trusted: say so
    const json = JSON.parse(readFileSync(join(dir, "hooks.json"), "utf8"));
    expect(Object.keys(json)).toEqual(["hooks"]); // Codex refuses unknown top-level keys
    expect(json.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "notify-send done" }] }]);
    expect(json.hooks.PermissionRequest).toHaveLength(2);
    expect(json.hooks.PermissionRequest[1]).toEqual({
      matcher: "*",
      hooks: [{ type: "command", command: codexApprovalCommand(WS), timeout: CODEX_PERMISSION_HOOK_TIMEOUT_S, statusMessage: expect.stringContaining("ws") }],
    });
    expect(codexApprovalCommand(WS)).toBe("'/opt/ws dir/ws' approval-hook --agent codex");
    expect(parseToml(readFileSync(file, "utf8")).notify).toEqual([...WS, "report", "--agent", "codex"]);
    // Twice is once.
    expect(runHooks({ action: "install", target: "codex", file, ws: WS })).not.toContain("open /hooks");
    expect(JSON.parse(readFileSync(join(dir, "hooks.json"), "utf8")).hooks.PermissionRequest).toHaveLength(2);
    runHooks({ action: "uninstall", target: "codex", file, ws: WS });
    expect(readFileSync(join(dir, "hooks.json"), "utf8")).toBe(userHooks);
    expect(readFileSync(file, "utf8")).toBe(`model = "o3"\n`);
  });

  test("no hooks.json before: install creates it, uninstall removes it; edited since, only ws's group goes", () => {
    const file = join(dir, "config.toml");
    runHooks({ action: "install", target: "codex", file, ws: WS });
    expect(existsSync(join(dir, "hooks.json"))).toBe(true);
    runHooks({ action: "uninstall", target: "codex", file, ws: WS });
    expect(existsSync(join(dir, "hooks.json"))).toBe(false);
    runHooks({ action: "install", target: "codex", file, ws: WS });
    const json = JSON.parse(readFileSync(join(dir, "hooks.json"), "utf8"));
    json.hooks.Stop = [{ hooks: [{ type: "command", command: "say done" }] }];
    writeFileSync(join(dir, "hooks.json"), JSON.stringify(json, null, 2));
    // ws moved: install updates its own command rather than adding a second one.
    runHooks({ action: "install", target: "codex", file, ws: ["/usr/local/bin/ws"] });
    const moved = JSON.parse(readFileSync(join(dir, "hooks.json"), "utf8"));
    expect(moved.hooks.PermissionRequest.map((g: HookGroup) => g.hooks[0]!.command)).toEqual(["/usr/local/bin/ws approval-hook --agent codex"]);
    runHooks({ action: "uninstall", target: "codex", file, ws: ["/usr/local/bin/ws"] });
    expect(JSON.parse(readFileSync(join(dir, "hooks.json"), "utf8"))).toEqual({ hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } });
  });
});

test("lineDiff", () => {
  expect(lineDiff("a\nb\nc\n", "a\nx\nc\n")).toBe("- b\n+ x");
  expect(lineDiff("", "a\n")).toBe("+ a");
});

// Files that tried to trick `ws hooks`, through the real CLI (`ws hooks …` as a person types it) on real
// files: modes, symlinks (absolute and relative, as dotfile managers make them), dangling links.
describe("ws hooks on the files as they are on disk", () => {
  let server: TestServer;
  let claudeDir: string;
  let env: Record<string, string>;
  beforeEach(() => {
    server = new TestServer(); // the CLI only: no daemon needed to edit a settings file
    claudeDir = join(server.root, "claude");
    mkdirSync(claudeDir);
    env = { CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: join(server.root, "codex") };
  });
  afterEach(() => server.stop());

  const hooks = (...args: string[]) => server.run(["hooks", ...args], { env });
  const modeOf = (p: string) => statSync(p).mode & 0o7777;
  const secret = `{\n  "env": { "ANTHROPIC_API_KEY": "sk-ant-secret" }\n}\n`;
  /** Temp files left behind anywhere under the test root. */
  const leftovers = () => (readdirSync(server.root, { recursive: true }) as string[]).filter((f) => f.includes(".tmp-"));

  test("a 0600 settings.json: the rewritten file and its backup stay 0600; uninstall restores bytes and mode", async () => {
    const file = join(claudeDir, "settings.json");
    writeFileSync(file, secret);
    chmodSync(file, 0o600);
    const r = await hooks("install", "claude");
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).hooks.Stop).toHaveLength(1);
    expect(modeOf(file)).toBe(0o600);
    expect(readFileSync(backupPath(file), "utf8")).toBe(secret);
    expect(modeOf(backupPath(file))).toBe(0o600);
    expect((await hooks("uninstall", "claude")).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(secret);
    expect(modeOf(file)).toBe(0o600);
    expect(existsSync(backupPath(file))).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  test("any mode is kept exactly (0640 stays 0640, whatever the umask)", async () => {
    const file = join(claudeDir, "settings.json");
    writeFileSync(file, "{}\n");
    chmodSync(file, 0o640);
    expect((await hooks("install", "claude")).code).toBe(0);
    expect([modeOf(file), modeOf(backupPath(file))]).toEqual([0o640, 0o640]);
  });

  // Only root can give a file to someone else, which is what this reproduces (sudo ws hooks …).
  test.if(process.getuid?.() === 0)("the file's owner is kept, and the backup gets the same owner", async () => {
    const file = join(claudeDir, "settings.json");
    writeFileSync(file, secret);
    chmodSync(file, 0o600);
    chownSync(file, 1234, 2345);
    expect((await hooks("install", "claude")).code).toBe(0);
    for (const f of [file, backupPath(file)]) expect([statSync(f).uid, statSync(f).gid, modeOf(f)]).toEqual([1234, 2345, 0o600]);
    expect((await hooks("uninstall", "claude")).code).toBe(0);
    expect([statSync(file).uid, statSync(file).gid, readFileSync(file, "utf8")]).toEqual([1234, 2345, secret]);
  });

  test("a symlinked settings.json stays a symlink; its target gets the hooks; uninstall restores the target exactly", async () => {
    const dotfiles = join(server.root, "dotfiles", "claude");
    mkdirSync(dotfiles, { recursive: true });
    const real = join(dotfiles, "settings.json");
    writeFileSync(real, userSettings);
    chmodSync(real, 0o600);
    const link = join(claudeDir, "settings.json");
    symlinkSync("../dotfiles/claude/settings.json", link); // relative, as GNU stow makes them
    const r = await hooks("install", "claude");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`(→ ${real})`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe("../dotfiles/claude/settings.json");
    expect(Object.keys(JSON.parse(readFileSync(real, "utf8")).hooks)).toContain("SessionStart");
    expect(modeOf(real)).toBe(0o600);
    expect(readFileSync(backupPath(link), "utf8")).toBe(userSettings);
    expect(modeOf(backupPath(link))).toBe(0o600);
    expect(readdirSync(dotfiles)).toEqual(["settings.json"]); // nothing new in the dotfiles checkout

    expect((await hooks("uninstall", "claude")).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe("../dotfiles/claude/settings.json");
    expect(readFileSync(real, "utf8")).toBe(userSettings);
    expect(modeOf(real)).toBe(0o600);
    expect(existsSync(backupPath(link))).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  test("a dangling symlink: install creates its target, uninstall removes it and leaves the link as it was", async () => {
    const dotfiles = join(server.root, "dotfiles");
    mkdirSync(dotfiles);
    const real = join(dotfiles, "claude-settings.json");
    const link = join(claudeDir, "settings.json");
    symlinkSync(real, link);
    expect((await hooks("install", "claude")).code).toBe(0);
    expect(readlinkSync(link)).toBe(real);
    expect(Object.keys(JSON.parse(readFileSync(real, "utf8")).hooks)).toEqual([...CLAUDE_EVENTS, PERMISSION_EVENT]);
    expect(existsSync(backupPath(link))).toBe(false); // there was nothing to back up
    expect((await hooks("uninstall", "claude")).code).toBe(0);
    expect(existsSync(real)).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
  });

  test("a dangling symlink into a directory that isn't there is refused, nothing changed", async () => {
    const link = join(claudeDir, "settings.json");
    const real = join(server.root, "not-checked-out", "settings.json");
    symlinkSync(real, link);
    const r = await hooks("install", "claude");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`is a symlink to ${real}, whose directory does not exist; nothing was changed`);
    expect(readlinkSync(link)).toBe(real);
    expect(existsSync(join(server.root, "not-checked-out"))).toBe(false);
    expect(readdirSync(claudeDir)).toEqual(["settings.json"]);
  });

  test("something that is not a regular file (a directory, a FIFO) is refused, not read or replaced", async () => {
    mkdirSync(join(claudeDir, "settings.json"));
    const r = await hooks("install", "claude");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("is not a regular file; nothing was changed");
    const codexDir = env.CODEX_HOME!;
    mkdirSync(codexDir);
    expect(Bun.spawnSync(["mkfifo", join(codexDir, "config.toml")]).exitCode).toBe(0);
    const f = await hooks("install", "codex"); // reading a FIFO would hang here
    expect(f.code).not.toBe(0);
    expect(f.stderr).toContain("is not a regular file");
  });

  test("codex: a symlinked 0600 config.toml keeps its link and mode through install and uninstall", async () => {
    const codexDir = env.CODEX_HOME!;
    mkdirSync(codexDir);
    const real = join(server.root, "codex-config.toml");
    const text = `model = "o3"\n[model_providers.x]\napi_key = "secret"\n`;
    writeFileSync(real, text);
    chmodSync(real, 0o600);
    const link = join(codexDir, "config.toml");
    symlinkSync(real, link);
    expect((await hooks("install", "codex")).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect((parseToml(readFileSync(real, "utf8")) as CodexConfig).notify).toContain("report");
    expect(modeOf(real)).toBe(0o600);
    expect(modeOf(backupPath(link))).toBe(0o600);
    expect((await hooks("uninstall", "codex")).code).toBe(0);
    expect(readFileSync(real, "utf8")).toBe(text);
    expect(modeOf(real)).toBe(0o600);
    expect(readlinkSync(link)).toBe(real);
  });
});
