// ./install.sh from a checkout, as the README gives it, on a machine where npm's global prefix
// isn't writable and no Bun is on the PATH: Bun comes into a private prefix and is linked beside
// ws, so the README's next command, `bun run test`, finds it; the man page and the completions
// are installed as the release installer installs them.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ROOT } from "./harness";

const scratch = mkdtempSync(join(tmpdir(), "ws-install-source-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A PATH of every program here but Bun, and an npm whose global prefix can't be written to. */
function machineWithoutBun(): string {
  const path = join(scratch, "path");
  mkdirSync(path);
  for (const dir of ["/usr/local/bin", "/usr/bin", "/bin"])
    for (const name of existsSync(dir) ? readdirSync(dir) : [])
      if (name !== "bun" && name !== "bunx" && name !== "npm" && !existsSync(join(path, name))) symlinkSync(join(dir, name), join(path, name));
  const realBun = process.execPath;
  writeFileSync(
    join(path, "npm"),
    `#!/bin/sh
case "$1 $2" in
  "prefix -g") echo '${join(scratch, "npm-global")}' ;;
  "install -g") echo "npm ERR! code EACCES: permission denied, mkdir '/usr/lib/node_modules/bun'" >&2; exit 243 ;;
  "install --prefix") mkdir -p "$3/node_modules/.bin" && ln -s '${realBun}' "$3/node_modules/.bin/bun" ;;
  *) exit 1 ;;
esac
`,
  );
  chmodSync(join(path, "npm"), 0o755);
  return path;
}

/** This checkout's files (committed or not, as git sees them) and its node_modules, elsewhere. */
function copyCheckout(): string {
  const dest = join(scratch, "ws");
  const files = Bun.spawnSync(["git", "ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT }).stdout.toString().split("\0").filter(Boolean);
  for (const f of files) if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(dest, f), { recursive: true });
  cpSync(join(ROOT, "node_modules"), join(dest, "node_modules"), { recursive: true, verbatimSymlinks: true });
  // `bun run test` runs every test file: here, one quick one.
  for (const f of readdirSync(join(dest, "test"))) if (f.endsWith(".test.ts")) rmSync(join(dest, "test", f));
  writeFileSync(join(dest, "test", "one.test.ts"), `import { expect, test } from "bun:test";\ntest("runs", () => expect(1 + 1).toBe(2));\n`);
  return dest;
}

test("./install.sh then bun run test, as the README writes them, where npm -g can't write and no Bun is on the PATH", async () => {
  const path = machineWithoutBun();
  const checkout = copyCheckout();
  const home = join(scratch, "home");
  mkdirSync(home);
  const bin = join(home, ".local/bin");
  const env = { HOME: home, PATH: path, TERM: "dumb", TMPDIR: scratch };
  const install = Bun.spawn(["bash", "./install.sh"], { cwd: checkout, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(install.stdout).text(), new Response(install.stderr).text(), install.exited]);
  expect({ code, err: err.includes("error") ? err : "" }).toEqual({ code: 0, err: "" });
  const privateBun = join(home, ".local/share/ws/bun/node_modules/.bin/bun");
  expect(out).toContain(`using ${Bun.version} at ${privateBun}`);
  // Bun is linked beside ws, and said so.
  expect(readlinkSync(join(bin, "bun"))).toBe(privateBun);
  expect(out).toContain(`linked ${join(bin, "bun")} -> ${privateBun}`);
  // The man page and the completions, as the release installer puts them.
  const share = join(home, ".local/share");
  expect(readFileSync(join(share, "man/man1/ws.1"), "utf8")).toBe(readFileSync(join(checkout, "dist/ws.1"), "utf8"));
  expect(readFileSync(join(share, "man/man1/ws.1"), "utf8")).toContain('.SS "ws pane send');
  for (const [shell, file] of [["bash", "bash-completion/completions/ws"], ["zsh", "zsh/site-functions/_ws"], ["fish", "fish/vendor_completions.d/ws.fish"]]) {
    const script = Bun.spawnSync([join(bin, "ws"), "completion", shell!], { env }).stdout.toString();
    expect(readFileSync(join(share, file!), "utf8")).toBe(script);
    expect(out).toContain(`${shell} completions: ${join(share, file!)}`);
  }
  // The README's test command, with the bin directory on the PATH as install.sh advised.
  const tested = Bun.spawn(["bash", "-c", "bun run test"], { cwd: checkout, env: { ...env, PATH: `${bin}:${path}` }, stdout: "pipe", stderr: "pipe" });
  const [tout, terr, tcode] = await Promise.all([new Response(tested.stdout).text(), new Response(tested.stderr).text(), tested.exited]);
  expect({ tcode, terr: terr.includes("command not found") ? terr : "" }).toEqual({ tcode: 0, terr: "" });
  expect(tout).toMatch(/^ *1 pass$/m);
  expect(basename(readlinkSync(join(bin, "bun")))).toBe("bun");
}, 300_000);

test("install.sh passes bash -n and shellcheck", () => {
  const script = join(ROOT, "install.sh");
  expect(Bun.spawnSync(["bash", "-n", script]).exitCode).toBe(0);
  if (!Bun.which("shellcheck")) return console.warn("shellcheck is not installed: skipped (apt-get install shellcheck)");
  const r = Bun.spawnSync(["shellcheck", script]);
  expect(r.stdout.toString()).toBe("");
  expect(r.exitCode).toBe(0);
});
