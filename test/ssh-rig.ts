// A real OpenSSH server for the remote tests: Debian's sshd on 127.0.0.1 on a free port, with its
// own host key, an authorized key for this user, a private known_hosts and an ssh config passed
// with -F (through WS_SSH_COMMAND, as a user would). The "remote machine" is this one seen through
// sshd with another HOME and XDG_RUNTIME_DIR (sshd's SetEnv), so its ws daemon, sockets and
// ~/.local/bin/ws are separate from the local side's.
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor, wsArgv } from "./harness";

const SSHD = "/usr/sbin/sshd";

/** Whether this machine can run the rig (the CI installs openssh-server; see .ci/run). */
export const haveSshd = () => existsSync(SSHD) && Bun.which("ssh") !== null && Bun.which("ssh-keygen") !== null;

async function run(argv: string[]): Promise<string> {
  const p = Bun.spawn(argv, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${argv.join(" ")} exited ${code}: ${err}`);
  return out;
}

/** A port nothing listens on right now (the kernel's pick). */
export function freePort(): number {
  const l = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = l.port;
  l.stop(true);
  return port;
}

/** Every process below `pid` (from /proc), deepest last. */
export function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const d of require("node:fs").readdirSync("/proc") as string[]) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) if (pp === p) (out.push(child), walk(child));
  };
  walk(pid);
  return out;
}

export class SshRig {
  /** The ssh host name the config defines. */
  readonly host = "wsrig";
  readonly root: string;
  /** The remote side's HOME, XDG_RUNTIME_DIR (its sockets live in ws/ under it) and state. */
  readonly home: string;
  readonly runtime: string;
  /** First on the remote PATH (empty unless a test puts something there). */
  readonly binDir: string;
  readonly sshConfig: string;
  private proc?: ReturnType<typeof Bun.spawn>;
  port = 0;

  constructor() {
    this.root = realpathSync(mkdtempSync(join(tmpdir(), "ws-ssh-")));
    chmodSync(this.root, 0o700);
    this.home = join(this.root, "home");
    this.runtime = join(this.root, "run");
    this.sshConfig = join(this.root, "ssh_config");
    this.binDir = join(this.root, "bin");
    for (const d of [this.home, this.runtime, this.binDir]) mkdirSync(d, { mode: 0o700 });
  }

  /** `ssh -F CONFIG`: what WS_SSH_COMMAND is set to, and how the tests run ssh themselves. */
  get sshCommand(): string {
    return `ssh -F ${this.sshConfig}`;
  }

  /** The environment a local ws needs to reach the rig (add to a TestServer's env). */
  get env(): Record<string, string> {
    return { WS_SSH_COMMAND: this.sshCommand };
  }

  async start(): Promise<this> {
    const r = this.root;
    await run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ws-rig-host", "-f", join(r, "host_key")]);
    await run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ws-rig-user", "-f", join(r, "id_ed25519")]);
    writeFileSync(join(r, "authorized_keys"), readFileSync(join(r, "id_ed25519.pub")), { mode: 0o600 });
    // sshd refuses to start without its privilege-separation directory.
    mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
    const user = (await run(["id", "-un"])).trim();
    for (let attempt = 0; ; attempt++) {
      this.port = freePort();
      writeFileSync(
        join(r, "sshd_config"),
        [
          `Port ${this.port}`,
          "ListenAddress 127.0.0.1",
          `HostKey ${join(r, "host_key")}`,
          `PidFile ${join(r, "sshd.pid")}`,
          `AuthorizedKeysFile ${join(r, "authorized_keys")}`,
          "PermitRootLogin prohibit-password",
          "PasswordAuthentication no",
          "KbdInteractiveAuthentication no",
          "UsePAM no",
          // The key files live in a temp dir, not the passwd home.
          "StrictModes no",
          "PrintMotd no",
          `AllowUsers ${user}`,
          `SetEnv HOME=${this.home} XDG_RUNTIME_DIR=${this.runtime} XDG_STATE_HOME=${join(this.home, "state")} XDG_CONFIG_HOME=${join(this.home, "config")} SHELL=/bin/bash LC_ALL=C.UTF-8 PATH=${this.binDir}:/usr/local/bin:/usr/bin:/bin`,
          "LogLevel ERROR",
        ].join("\n") + "\n",
      );
      this.proc = Bun.spawn([SSHD, "-D", "-e", "-f", join(r, "sshd_config")], { stdin: "ignore", stdout: "ignore", stderr: Bun.file(join(r, "sshd.log")) });
      const up = await waitFor("sshd to listen", async () => {
        if (this.proc!.exitCode !== null) return "exited";
        try {
          const s = await Bun.connect({ hostname: "127.0.0.1", port: this.port, socket: { data() {} } });
          s.end();
          return "up";
        } catch {
          return undefined;
        }
      }, 10000).catch(() => "timeout");
      if (up === "up") break;
      this.proc.kill("SIGKILL");
      if (attempt >= 3) throw new Error(`sshd did not start: ${readFileSync(join(r, "sshd.log"), "utf8")}`);
    }
    const hostKey = readFileSync(join(r, "host_key.pub"), "utf8").trim().split(/\s+/).slice(0, 2).join(" ");
    writeFileSync(join(r, "known_hosts"), `[127.0.0.1]:${this.port} ${hostKey}\n`, { mode: 0o600 });
    writeFileSync(
      this.sshConfig,
      [
        // wsrig-* are more names for the same machine (the dashboard merges several names).
        `Host ${this.host} ${this.host}-*`,
        "  HostName 127.0.0.1",
        `  Port ${this.port}`,
        `  User ${user}`,
        `  IdentityFile ${join(r, "id_ed25519")}`,
        "  IdentitiesOnly yes",
        `  UserKnownHostsFile ${join(r, "known_hosts")}`,
        "  GlobalKnownHostsFile /dev/null",
        "  StrictHostKeyChecking yes",
        "  LogLevel ERROR",
      ].join("\n") + "\n",
      { mode: 0o600 },
    );
    return this;
  }

  /** Another host name for the config, at 127.0.0.1:`port` (a closed port, a silent listener). */
  addHost(name: string, port: number): void {
    appendFileSync(this.sshConfig, [`Host ${name}`, "  HostName 127.0.0.1", `  Port ${port}`, `  UserKnownHostsFile ${join(this.root, "known_hosts")}`].join("\n") + "\n");
  }

  /** Put a ws at the remote ~/.local/bin/ws that runs this test's ws (the compiled binary or the sources). */
  installWsShim(): string {
    const bin = join(this.home, ".local", "bin");
    mkdirSync(bin, { recursive: true });
    const path = join(bin, "ws");
    const argv = wsArgv().map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
    writeFileSync(path, `#!/bin/sh\nexec ${argv} "$@"\n`, { mode: 0o755 });
    return path;
  }

  /** Run a command on the "remote" through ssh (argv joined by ssh; constant test strings only). */
  async ssh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const p = Bun.spawn(["ssh", "-F", this.sshConfig, "-T", this.host, command], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, stdout, stderr };
  }

  /** The remote daemon's pid on the default socket, from its info file. */
  remoteDaemonPid(name = "default"): number | undefined {
    try {
      return JSON.parse(readFileSync(join(this.runtime, "ws", `${name}.info.json`), "utf8")).pid;
    } catch {
      return undefined;
    }
  }

  async stop(): Promise<void> {
    // The remote daemon: stop it for certain (a test must never leave one running).
    const pid = this.remoteDaemonPid();
    if (pid !== undefined) {
      try {
        process.kill(pid, "SIGTERM");
        await waitFor("remote daemon to exit", () => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        }, 5000).catch(() => process.kill(pid, "SIGKILL"));
      } catch {}
    }
    // sshd's per-connection children outlive its listener: end them too, so no ssh master the
    // tests made (ControlPersist) lingers on a dead connection.
    const children = this.proc?.pid !== undefined ? descendants(this.proc.pid) : [];
    this.proc?.kill("SIGTERM");
    for (const pid of children) {
      try {
        process.kill(pid, "SIGTERM");
      } catch {}
    }
    await this.proc?.exited;
    rmSync(this.root, { recursive: true, force: true });
  }
}
