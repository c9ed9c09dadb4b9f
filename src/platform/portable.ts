// The portable answers (src/platform/index.ts): `ps` and `lsof`, run as argv (never a shell),
// asynchronously (the daemon's thread never waits on a child process).

/** A child's standard output, or undefined when it could not run or failed. */
export async function output(argv: string[]): Promise<string | undefined> {
  try {
    const p = Bun.spawn(argv, { stdout: "pipe", stderr: "ignore", stdin: "ignore" });
    const [text, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    return code === 0 ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The foreground process group of `pid`'s terminal; `pid` itself when it has no terminal (ps
 * says -1 or 0); undefined when the process is gone. */
export async function tpgid(pid: number): Promise<number | undefined> {
  const out = await output(["ps", "-o", "tpgid=", "-p", String(pid)]);
  if (out === undefined || out.trim() === "") return undefined;
  const n = Number(out.trim());
  return Number.isInteger(n) && n > 0 ? n : pid;
}

/** A process's command line as ps prints it, split at spaces (ps joins argv with spaces, so an
 * argument holding one comes back as two); undefined when the process is gone. */
export async function argv(pid: number): Promise<string[] | undefined> {
  const line = (await output(["ps", "-o", "args=", "-p", String(pid)]))?.trim();
  if (line === undefined) return undefined;
  return line ? line.split(/\s+/) : [];
}

/** A process's current directory from lsof's field output ("p<pid>", "fcwd", "n<path>"). */
export async function cwd(pid: number): Promise<string | undefined> {
  const out = await output(["lsof", "-a", "-d", "cwd", "-p", String(pid), "-Fn"]);
  const line = out?.split("\n").find((l) => l.startsWith("n/"));
  return line?.slice(1);
}
