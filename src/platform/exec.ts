// execve(2): become another program, same pid, same terminal, same process group. `ws box` uses it
// so that a boxed program typed in a shell is that shell's job itself (Ctrl-C, Ctrl-Z and `fg`
// reach it), with no ws process left waiting in between. Bun has no exec of its own.
import { cLibrary, ptr } from "./ffi";

/** A NULL-terminated array of C strings; `keep` holds the buffers for as long as it is used. */
function cStrings(list: readonly string[], keep: unknown[]): BigUint64Array {
  const out = new BigUint64Array(list.length + 1);
  list.forEach((s, i) => {
    const b = Buffer.from(`${s}\0`);
    keep.push(b);
    out[i] = BigInt(ptr(b));
  });
  keep.push(out);
  return out;
}

/** Replace this process with `path` run as `argv` in `env`. Returns only when it could not (the
 * reason: no C library here, or execve's failure). */
export function execProgram(path: string, argv: readonly string[], env: Record<string, string>): string {
  const c = cLibrary.exec();
  if (!c) return "no C library to exec with on this system";
  const keep: unknown[] = [];
  const file = Buffer.from(`${path}\0`);
  const args = cStrings(argv, keep);
  const envp = cStrings(
    Object.entries(env).map(([k, v]) => `${k}=${v}`),
    keep,
  );
  c.execve(file, args, envp);
  return `execve ${path} failed`;
}
