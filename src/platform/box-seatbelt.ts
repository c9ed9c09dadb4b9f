// A box on macOS: a sandbox-exec (Seatbelt) profile for the same plan bwrap gets on Linux. Seatbelt
// filters operations rather than mounting, so "private" and "hidden" are denials here: the
// program may not read or write a hidden path, writes only where the plan says, and reaches no
// Unix socket but its own. /tmp can't be made private: writes go to a private directory that
// TMPDIR names instead, and the rest of /tmp and /private/var/folders is unreadable. Untested in
// this repository's CI (Linux); the profile text is checked by test/box-plan.test.ts.
import type { BoxPlan } from "./box-bwrap";

/** A path as a Seatbelt string literal. */
const lit = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** The profile for `plan`; `tmp` is the private directory TMPDIR points at. */
export function seatbeltProfile(plan: BoxPlan, tmp: string): string {
  const lines = [
    "(version 1)",
    "(allow default)",
    // Nothing of the person's outside what the plan lets it write.
    "(deny file-write* (subpath \"/\"))",
    `(allow file-write* ${[...plan.write, tmp].map((w) => `(subpath ${lit(w)})`).join(" ")} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$") (regex #"^/dev/fd/"))`,
  ];
  const hidden = [...plan.privateDirs, ...plan.hide.map((h) => h.path)];
  if (hidden.length) lines.push(`(deny file-read* file-write* ${hidden.map((h) => `(subpath ${lit(h)})`).join(" ")})`);
  // Allowed again after the denials: its writable places (a worktree under a hidden data
  // directory) and ws's files it reads.
  const again = [...plan.write, tmp];
  lines.push(`(allow file-read* file-write* ${again.map((w) => `(subpath ${lit(w)})`).join(" ")})`);
  if (plan.read.length) lines.push(`(allow file-read* ${plan.read.map((r) => `(subpath ${lit(r)})`).join(" ")})`);
  // No Unix socket but the pane's own (the person's ssh-agent, tmux, launchd's per-user ones).
  lines.push('(deny network-outbound (remote unix-socket (path-regex #"^/")))');
  if (plan.socket) lines.push(`(allow network-outbound (remote unix-socket (path-literal ${lit(plan.socket)})))`, `(allow file-read* (literal ${lit(plan.socket)}))`);
  if (!plan.network) lines.push('(deny network-outbound (remote ip "*:*"))', '(deny network-inbound (local ip "*:*"))');
  return lines.join("\n") + "\n";
}

/** sandbox-exec's argv for `plan`. */
export function seatbeltArgv(plan: BoxPlan, tmp: string, argv: readonly string[]): string[] {
  return ["-p", seatbeltProfile(plan, tmp), ...argv];
}
