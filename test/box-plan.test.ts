// What a box holds (src/model/box.ts's plan) over real directories and a real git worktree, and how
// the plan becomes bwrap's arguments, a Seatbelt profile (macOS: its text only, nothing here runs
// sandbox-exec) and the seccomp filter. The boxes themselves run in test/box.integration.test.ts.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planBox } from "../src/model/box";
import { bwrapArgv } from "../src/platform/box-bwrap";
import { seatbeltProfile } from "../src/platform/box-seatbelt";
import { tiocstiFilter } from "../src/platform/box-seccomp";
import { parseTemplate, BUILTINS, loadTemplate } from "../src/features/workstreams/templates";
import { checkTree } from "../src/model/tree";

const root = realpathSync(mkdtempSync(join(tmpdir(), "ws-box-plan-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, "home");
const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"), XDG_STATE_HOME: join(home, ".local/state"), PATH: process.env.PATH };
const runtime = join(root, "run", "ws");
for (const d of [".ssh", ".config/gh", ".config/ws", ".claude", ".local/share/ws/worktrees/app/feat", "code/app", "code/notes"]) mkdirSync(join(home, d), { recursive: true });
mkdirSync(runtime, { recursive: true });
writeFileSync(join(home, ".netrc"), "machine x password y\n");
writeFileSync(join(home, ".claude.json"), "{}\n");
const git = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: home }, stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
};

describe("planBox", () => {
  test("hides the secrets and ws's own files; the checkout and agent state are writable", () => {
    const plan = planBox(join(home, "code/notes"), {}, { env, runtime: [runtime], socket: join(runtime, "default.sock") });
    const hidden = plan.hide.map((h) => h.path);
    for (const p of [".ssh", ".config/gh", ".config/ws"]) expect(hidden).toContain(join(home, p));
    expect(plan.hide).toContainEqual({ path: join(home, ".netrc"), dir: false });
    expect(hidden).toContain(runtime);
    expect(plan.write).toEqual([join(home, "code/notes"), join(home, ".claude"), join(home, ".claude.json")]);
    expect(plan.privateDirs).toContain("/tmp");
    expect(plan.network).toBe(true);
  });

  test("a linked worktree may write its own git directory and the repo's objects and refs, not its config or hooks", () => {
    const repo = join(home, "code/app");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first");
    const wt = join(home, ".local/share/ws/worktrees/app/feat/tree");
    git(repo, "worktree", "add", "-q", "-b", "feat", wt);
    const plan = planBox(join(wt), {}, { env, runtime: [runtime] });
    expect(plan.write).toEqual(expect.arrayContaining([wt, join(repo, ".git/worktrees/tree"), join(repo, ".git/objects"), join(repo, ".git/refs"), join(repo, ".git/logs")]));
    expect(plan.write).not.toContain(join(repo, ".git"));
    // A .git file pointing elsewhere, which the repository does not name back, gives nothing.
    const fake = join(home, "code/notes");
    writeFileSync(join(fake, ".git"), `gitdir: ${join(repo, ".git/worktrees/tree")}\n`);
    expect(planBox(fake, {}, { env, runtime: [runtime] }).write).toEqual([fake, join(home, ".claude"), join(home, ".claude.json")]);
    rmSync(join(fake, ".git"));
  });

  test("refuses a box that could write the home directory or what it hides", () => {
    const refused = (cwd: string, write?: string[]) => {
      try {
        planBox(cwd, write ? { write } : {}, { env, runtime: [runtime] });
        return "planned";
      } catch (e) {
        return (e as { code?: string }).code;
      }
    };
    expect(refused(home)).toBe("box_refused");
    expect(refused(root)).toBe("box_refused");
    expect(refused("/")).toBe("box_refused");
    expect(refused(join(home, ".ssh"))).toBe("box_refused");
    expect(refused(join(home, ".config"))).toBe("box_refused");
    expect(refused(join(home, "code/notes"), ["~/.ssh"])).toBe("box_refused");
    expect(refused(join(home, "code/notes"), ["~/.config"])).toBe("box_refused");
    expect(refused(join(home, "code/notes"), ["~/code/app"])).toBe("planned");
    // A link to a hidden directory is the directory.
    symlinkSync(join(home, ".ssh"), join(home, "code/keys"));
    expect(refused(join(home, "code/keys"))).toBe("box_refused");
  });
});

describe("the plan as the sandbox tools take it", () => {
  const plan = planBox(join(home, "code/notes"), { network: false }, { env, runtime: [runtime], socket: join(runtime, "default.sock") });

  test("bwrap: read-only root, then private dirs, hides, writes and the socket, in that order; no --new-session", () => {
    const argv = bwrapArgv(plan, ["claude", "--x"], 3);
    const at = (a: string, b?: string) => argv.findIndex((x, i) => x === a && (b === undefined || argv[i + 1] === b));
    expect(argv).not.toContain("--new-session");
    expect(argv).toContain("--unshare-net");
    expect(argv).toContain("--unshare-pid");
    expect(argv).toContain("--die-with-parent");
    expect(at("--ro-bind", "/")).toBeLessThan(at("--tmpfs", "/tmp"));
    expect(at("--tmpfs", "/tmp")).toBeLessThan(at("--tmpfs", join(home, ".ssh")));
    expect(at("--tmpfs", join(home, ".ssh"))).toBeLessThan(at("--bind", join(home, "code/notes")));
    expect(at("--bind", join(home, "code/notes"))).toBeLessThan(at("--bind-try", join(runtime, "default.sock")));
    expect(argv.slice(argv.indexOf("--seccomp"), argv.indexOf("--seccomp") + 2)).toEqual(["--seccomp", "3"]);
    expect(argv.slice(-3)).toEqual(["--", "claude", "--x"]);
  });

  test("Seatbelt: writes only to the plan's places, hidden paths unreadable, no Unix socket but its own, no network", () => {
    const profile = seatbeltProfile(plan, "/private/tmp/box");
    expect(profile).toContain('(deny file-write* (subpath "/"))');
    expect(profile).toContain(`(subpath "${join(home, "code/notes")}")`);
    expect(profile).toMatch(new RegExp(`\\(deny file-read\\* file-write\\* .*\\(subpath "${join(home, ".ssh")}"\\)`));
    expect(profile).toContain('(deny network-outbound (remote unix-socket (path-regex #"^/")))');
    expect(profile).toContain(`(allow network-outbound (remote unix-socket (path-literal "${join(runtime, "default.sock")}")))`);
    expect(profile).toContain('(deny network-outbound (remote ip "*:*"))');
    expect(seatbeltProfile({ ...plan, write: ['/a"b'] }, "/t")).toContain('(subpath "/a\\"b")');
  });

  test("seccomp: one filter per architecture ws runs on, struct sock_filter sized", () => {
    for (const arch of ["x64", "arm64"]) expect(tiocstiFilter(arch)!.length).toBe(10 * 8);
    expect(tiocstiFilter("ia32")).toBeUndefined();
  });
});

describe("templates and layout trees", () => {
  test("a leaf takes box, network and box_write; the built-in review template boxes its agent", async () => {
    expect(checkTree({ type: "pane", box: true, network: false, box_write: ["~/.cache/x"] })).toBeUndefined();
    expect(checkTree({ type: "pane", box: "yes" })).toContain("must be a boolean");
    expect(checkTree({ type: "pane", box_write: "~/.cache" })).toContain("must be an array of paths");
    expect(BUILTINS).toContain("review");
    const review = await loadTemplate("review", { XDG_CONFIG_HOME: join(root, "no-config") });
    const first = review.layout.type === "split" ? review.layout.first : undefined;
    expect(first).toMatchObject({ label: "review", box: true });
    const t = parseTemplate("t", '[layout]\ntype = "pane"\nbox = true\nnetwork = false\nbox_write = ["~/.cache/t"]\n');
    expect(t.layout).toMatchObject({ box: true, network: false, box_write: ["~/.cache/t"] });
  });
});
