// What a process pays for each way of calling C (src/platform/ffi.ts chose Bun.FFI by this): a tiny
// program compiled with bytecode, as ws is, times inside itself opening glibc's lstat through
// Bun.FFI and then loading the bun:ffi module, and in the other order; medians over fresh processes.
// The first dlopen of a process costs the same either way; the module costs its load on top.
//   bun bench/ffi-load.ts [runs]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./lib";

const RUNS = Number(process.argv[2] ?? 100);
const dir = mkdtempSync(join(tmpdir(), "ws-bench-ffi-"));
const program = `
const out = new Uint32Array(64);
const r = {};
async function viaModule() {
  let t = performance.now();
  const m = await import("bun:ffi");
  r.load_module = performance.now() - t;
  t = performance.now();
  m.dlopen("libc.so.6", { fstat: { args: ["i32", "ptr"], returns: "i32" } }).symbols.fstat(0, out);
  r["module_dlopen_" + process.argv[2]] = performance.now() - t;
}
function viaNative() {
  const t = performance.now();
  Bun.FFI.dlopen("libc.so.6", { lstat: { args: ["ptr", "ptr"], returns: "i32" } }).symbols.lstat(new TextEncoder().encode("/\\0"), out);
  r["native_dlopen_" + process.argv[2]] = performance.now() - t;
}
if (process.argv[2] === "module_first") { await viaModule(); viaNative(); } else { viaNative(); await viaModule(); }
console.log(JSON.stringify(r));
`;
try {
  if (process.platform !== "linux") throw new Error("this bench opens glibc: Linux only");
  writeFileSync(join(dir, "p.ts"), program);
  const built = await Bun.build({ entrypoints: [join(dir, "p.ts")], compile: { outfile: join(dir, "p") }, minify: true, format: "esm", bytecode: true });
  if (!built.success) throw new Error(`could not compile: ${built.logs.join("\n")}`);
  const samples = new Map<string, number[]>();
  for (let i = 0; i < RUNS; i++)
    for (const order of ["native_first", "module_first"]) {
      const r = Bun.spawnSync([join(dir, "p"), order]);
      for (const [k, v] of Object.entries(JSON.parse(r.stdout.toString()) as Record<string, number>)) {
        const key = k === "load_module" ? `load_module_${order}` : k;
        samples.set(key, [...(samples.get(key) ?? []), v]);
      }
    }
  console.log(`runs: ${RUNS}   load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
  for (const [k, xs] of [...samples].sort()) console.log(`${k.padEnd(28)} median ${median(xs).toFixed(3)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
