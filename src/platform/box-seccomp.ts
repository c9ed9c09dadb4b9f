// The seccomp filter a box's program runs under (bwrap --seccomp): ioctl TIOCSTI and TIOCLINUX are
// refused with EPERM. TIOCSTI pushes bytes into the terminal's input queue as if typed; from a
// box, what it pushes is read by whatever reads the pane's terminal next, such as the unboxed
// shell a boxed agent was started from once the agent exits. Linux 6.2 and later refuse it to
// unprivileged callers unless dev.tty.legacy_tiocsti is 1 (it is on kernels built with
// CONFIG_LEGACY_TIOCSTI); the filter holds either way. Everything else is allowed; a system call
// of another architecture (x32, or i386 through int 0x80) is refused whole, as its numbers differ.

import { readFileSync } from "node:fs";

// Classic BPF opcodes (linux/filter.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
// linux/seccomp.h
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO_EPERM = 0x00050000 | 1;
// struct seccomp_data: nr at 0, arch at 4, args[] from 16 (64 bits each; the low half first on
// these little-endian machines). ioctl's request is an unsigned int: only its low 32 bits count.
const NR = 0;
const ARCH = 4;
const ARG1_LOW = 24;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;

/** Each architecture's audit tag, ioctl's number, and the first number past its own system calls
 * (x86_64's x32 calls set bit 30). */
const ARCHES: Record<string, { arch: number; ioctl: number; end: number }> = {
  x64: { arch: 0xc000003e, ioctl: 16, end: 0x40000000 },
  arm64: { arch: 0xc00000b7, ioctl: 29, end: 0x40000000 },
};

/** Whether this kernel refuses TIOCSTI to unprivileged programs by itself (Linux 6.2+ with
 * dev.tty.legacy_tiocsti = 0). The filter is applied either way. */
export function tiocstiBlocked(): boolean {
  try {
    return readFileSync("/proc/sys/dev/tty/legacy_tiocsti", "utf8").trim() === "0";
  } catch {
    return false;
  }
}

type Insn = [code: number, jt: number, jf: number, k: number];

/** The filter as bwrap reads it (an array of struct sock_filter), or undefined on an architecture
 * ws has no numbers for. */
export function tiocstiFilter(arch: string = process.arch): Uint8Array | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  // Jump offsets count the instructions skipped: ALLOW is at 8, DENY at 9.
  const prog: Insn[] = [
    [LD_W_ABS, 0, 0, ARCH], // 0
    [JEQ_K, 0, 7, a.arch], // 1: another architecture → DENY
    [LD_W_ABS, 0, 0, NR], // 2
    [JGE_K, 5, 0, a.end], // 3: x32 → DENY
    [JEQ_K, 0, 3, a.ioctl], // 4: not ioctl → ALLOW
    [LD_W_ABS, 0, 0, ARG1_LOW], // 5
    [JEQ_K, 2, 0, TIOCSTI], // 6: → DENY
    [JEQ_K, 1, 0, TIOCLINUX], // 7: → DENY
    [RET_K, 0, 0, RET_ALLOW], // 8
    [RET_K, 0, 0, RET_ERRNO_EPERM], // 9
  ];
  const out = new Uint8Array(prog.length * 8);
  const view = new DataView(out.buffer);
  prog.forEach(([code, jt, jf, k], i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k, true);
  });
  return out;
}
