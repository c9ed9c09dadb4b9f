// The real Claude Code, Codex and Gemini CLI (npm packages, installed into the same temporary
// prefixes the other agent tests use; skipped with a message where they can't be) start in a box
// (src/model/box.ts) and draw their first screens, offline as in test/agent-clis.integration.test.ts:
// their own state directories under $HOME are the box's to write, the rest of $HOME is not. The
// prefix they are installed in lies under /tmp, which a box makes private: the layout's
// `box_write` shows it (read-write; a person's agents live on PATH, which a box shows read-only).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeBwrap } from "../src/model/box";
import { useServer, waitFor } from "./harness";
import { npmAgent } from "./npm-agent";

const bwrapWorks = existsSync("/usr/bin/bwrap") && probeBwrap("/usr/bin/bwrap") === undefined;
const s = useServer();

interface Agent {
  pkg: string;
  bin: string;
  prefix: string;
  /** What the CLI would have after a first run, in the server's $HOME. */
  home: (home: string, proj: string, bin: string) => void;
  env: string[];
  ready: string;
}

const AGENTS: Record<string, Agent> = {
  claude: {
    pkg: "@anthropic-ai/claude-code",
    bin: "claude",
    prefix: "ws-test-claude-code",
    home: (home, proj) => {
      mkdirSync(join(home, ".claude"), { recursive: true });
      writeFileSync(join(home, ".claude.json"), JSON.stringify({ hasCompletedOnboarding: true, theme: "dark", numStartups: 5, projects: { [proj]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } } }));
    },
    env: ["CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_SKIP_BEDROCK_AUTH=1", "AWS_REGION=us-east-1", "DISABLE_AUTOUPDATER=1"],
    ready: "? for shortcuts",
  },
  codex: {
    pkg: "@openai/codex",
    bin: "codex",
    prefix: "ws-test-codex",
    home: (home, _proj, bin) => {
      const login = Bun.spawnSync([bin, "login", "--with-api-key"], { stdin: new Blob(["sk-offline-never-sent\n"]), env: { ...process.env, HOME: home }, stdout: "ignore", stderr: "ignore" });
      if (login.exitCode !== 0) throw new Error("codex login --with-api-key failed");
    },
    env: [],
    ready: "› Ask Codex to do anything",
  },
  gemini: {
    pkg: "@google/gemini-cli",
    bin: "gemini",
    prefix: "ws-test-gemini",
    home: (home, proj) => {
      mkdirSync(join(home, ".gemini"), { recursive: true });
      writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
      writeFileSync(join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [proj]: "TRUST_FOLDER" }));
    },
    env: ["GEMINI_API_KEY=offline-never-sent"],
    ready: "Type your message",
  },
};

describe("agent CLIs in a box", () => {
  for (const [name, a] of Object.entries(AGENTS)) {
    test.skipIf(!bwrapWorks)(`${name} starts boxed and draws its first screen`, async () => {
      const agent = npmAgent(a.pkg, a.bin, a.prefix);
      const why = await agent.install();
      if (why) return console.warn(`skipped: ${why}`);
      const proj = join(s.root, `${name}-proj`);
      mkdirSync(proj, { recursive: true });
      a.home(s.root, proj, agent.bin);
      const root = {
        type: "pane",
        cwd: proj,
        command: ["env", "-u", "CI", "TERM=xterm-256color", "COLORTERM=truecolor", ...a.env, agent.bin],
        box: true,
        box_write: [join(tmpdir(), a.prefix)],
      };
      const t0 = performance.now();
      const r = await s.v6({ type: "layout_apply", root, name, focus: true });
      expect(r.type).toBe("layout");
      const pane = (r.root as { pane: number }).pane;
      await s.waitScreen(pane, a.ready, 120_000);
      console.log(`${name}: first screen in a box in ${Math.round(performance.now() - t0)} ms`);
      // It is boxed: ws sees the agent, not bwrap, in the foreground.
      await waitFor(`${name} in the foreground`, async () => {
        const info = (await s.v6({ type: "pane_info", pane })) as { foreground?: { argv?: string[] } | null };
        const fg = info.foreground?.argv ?? [];
        return fg.length > 0 && !fg[0]!.endsWith("bwrap");
      });
      const env = await s.v6({ type: "pane_info", pane });
      expect(JSON.stringify(env)).not.toContain("--die-with-parent");
    }, 300_000);
  }
});
