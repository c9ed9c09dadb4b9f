// A box on Linux: bubblewrap's argv for a plan (src/model/box.ts decides what the plan holds).
// The order of the mounts is the point: later ones lie over earlier ones. The whole filesystem
// read-only first; then a private /dev, /proc (a PID namespace of the box's own: no other
// process's environment, memory or /proc/PID/root to read), /tmp and runtime directories; then
// what is hidden; then what the program may write; then what it may read of ws's own files and,
// last, its own socket.
// Not --new-session: the program keeps the pane's terminal as its controlling terminal, so job
// control and Ctrl-C work; TIOCSTI is stopped by a seccomp filter instead (box-seccomp.ts).

export interface BoxPlan {
  /** Where the program starts. */
  cwd: string;
  /** Directories that get an empty private tmpfs (/tmp, the runtime directories). */
  privateDirs: string[];
  /** Shown again read-only once the private directories are mounted (a $HOME under /tmp). */
  reshow: string[];
  /** Hidden: a directory becomes an empty tmpfs, a file reads as empty. */
  hide: { path: string; dir: boolean }[];
  /** Read-write inside the box (the worktree, the agent's state). */
  write: string[];
  /** Read-only inside the box, though under a hidden directory (ws's shell-integration files). */
  read: string[];
  /** The pane's socket (its WS_SOCKET): the one way to ws from inside. */
  socket?: string;
  network: boolean;
}

const parentOf = (path: string) => path.slice(0, Math.max(1, path.lastIndexOf("/")));

/** bwrap's arguments for `plan`, ending with `--` and the program's argv. With `seccompFd`, the
 * filter bwrap reads from that descriptor. */
export function bwrapArgv(plan: BoxPlan, argv: readonly string[], seccompFd?: number): string[] {
  // No capabilities, even for root (bwrap keeps root's otherwise, and a program with them could
  // unmount what hides the secrets).
  const out = ["--die-with-parent", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-cgroup-try"];
  if (!plan.network) out.push("--unshare-net");
  out.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const d of plan.privateDirs) out.push("--tmpfs", d);
  for (const d of plan.reshow) out.push("--ro-bind", d, d);
  for (const h of plan.hide) out.push(...(h.dir ? ["--perms", "0700", "--tmpfs", h.path] : ["--ro-bind", "/dev/null", h.path]));
  for (const w of plan.write) out.push("--bind", w, w);
  for (const r of plan.read) out.push("--ro-bind", r, r);
  // Its directory 0700, as ws's clients insist; -try: a server's first pane starts before the
  // server's socket is bound.
  if (plan.socket) out.push("--perms", "0700", "--dir", parentOf(plan.socket), "--bind-try", plan.socket, plan.socket);
  if (seccompFd !== undefined) out.push("--seccomp", String(seccompFd));
  out.push("--chdir", plan.cwd, "--", ...argv);
  return out;
}
