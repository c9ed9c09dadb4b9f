// What execve would say about a program file, asked before anything is started. The native PTY
// path starts programs through `setsid`, so an exec that fails there fails in a child nobody can
// answer for: the pane would open only to show setsid's complaint. These are the failures a file
// on disk decides: a `#!` interpreter that is missing (also `#!/usr/bin/env NAME` with NAME not on
// PATH) and a binary for no machine of this kind (ENOEXEC). A file that is neither a script nor a
// binary runs with /bin/sh, as execvp and shells do. Files are read through src/safe-file.ts: a
// FIFO as the program or its interpreter is refused (execve would say EACCES), never waited on.
import { accessSync, constants } from "node:fs";
import { basename } from "node:path";
import { FileReadError, readRegular } from "../safe-file";

export interface ExecProblem {
  code: "ENOENT" | "EACCES" | "ENOEXEC";
  why: string;
}

/** ELF e_machine for the architectures Bun runs on. */
const ELF_MACHINE: Partial<Record<string, number>> = { x64: 62, arm64: 183, ia32: 3, arm: 40, riscv64: 243, ppc64: 21, s390x: 22 };
/** Linux follows at most this many nested `#!` interpreters. */
const MAX_INTERPRETERS = 4;

function readHead(path: string): { head: Buffer } | { problem: ExecProblem } {
  try {
    return { head: readRegular(path, { max: 256 }).bytes };
  } catch (e) {
    // Out of descriptors says nothing about the file: the caller answers resource_exhausted.
    if ((e as FileReadError).code === "EMFILE" || (e as FileReadError).code === "ENFILE") throw e;
    const code = (e as FileReadError).code;
    return { problem: { code: code === "EACCES" || code === "NOT_REGULAR" ? "EACCES" : "ENOENT", why: (e as Error).message } };
  }
}

/** Why `path` (an executable file already found) would not start, or undefined. */
export function execProblem(path: string, PATH: string, depth = 0): ExecProblem | undefined {
  const read = readHead(path);
  if ("problem" in read) return read.problem;
  const { head } = read;
  if (head[0] === 0x23 && head[1] === 0x21) {
    const line = head.subarray(2).toString("latin1").split("\n")[0]!.trim();
    const [interpreter, arg] = line.split(/[ \t]+/);
    if (!interpreter) return { code: "ENOEXEC", why: "its #! line names no interpreter" };
    if (depth >= MAX_INTERPRETERS) return undefined;
    try {
      accessSync(interpreter, constants.X_OK);
    } catch {
      return { code: "ENOENT", why: `its interpreter ${interpreter} is missing` };
    }
    // `#!/usr/bin/env node`: env looks the name up on PATH, which is ours to check.
    if (basename(interpreter) === "env" && arg && !arg.startsWith("-") && !arg.includes("=") && !Bun.which(arg, { PATH }))
      return { code: "ENOENT", why: `its interpreter ${arg} (#!${line}) is not on PATH` };
    return execProblem(interpreter, PATH, depth + 1);
  }
  if (head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    if (head.length < 20) return { code: "ENOEXEC", why: "it is not a complete binary (a cut-short ELF header)" };
    const machine = head[5] === 2 ? head.readUInt16BE(18) : head.readUInt16LE(18);
    const ours = ELF_MACHINE[process.arch];
    if (ours !== undefined && machine !== ours) return { code: "ENOEXEC", why: `it is a binary for another kind of machine (ELF machine ${machine})` };
  }
  return undefined;
}
