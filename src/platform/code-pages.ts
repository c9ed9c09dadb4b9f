// The server's start-up code, let go once it has started (Linux). ws runs inside a ~100 MB
// executable (Bun and JavaScriptCore): starting the daemon runs code from all over it (module
// loading, the JIT's tiers, sockets, spawning, the file system), and the kernel maps each page it
// runs with its neighbours (fault-around), so a fresh server kept ~40 MB of the executable's pages
// resident where a quiet one runs a fraction of them. Those pages are the file's, clean and shared:
// MADV_DONTNEED unmaps them from this process only, they stay in the page cache (the next `ws`
// call still finds them there), and a page that runs again comes back on a minor fault.
import { glibc } from "./ffi";
import { readFileSync } from "node:fs";
import { ownMappingsSync } from "./linux";

const MADV_DONTNEED = 4; // the same on every Linux architecture ws is built for

export interface CodeMapping {
  start: number;
  end: number;
  /** Resident now, in kB. */
  rssKb: number;
}

/**
 * The read-only private mappings of `file` in an smaps text (/proc/PID/smaps) holding nothing but
 * the file's own pages. A mapping with anonymous pages was written once (a table made read-only
 * after start-up, a debugger's breakpoint): dropping those would lose what was written, so it is
 * left alone; so is anything writable or shared.
 */
export function cleanCodeMappings(smaps: string, file: string): CodeMapping[] {
  const out: CodeMapping[] = [];
  for (const block of smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (r-xp|r--p) [0-9a-f]+ \S+ \d+ +(.*)$/m.exec(block);
    if (!head || head[4] !== file) continue;
    if (!/^Anonymous:\s+0 kB$/m.test(block)) continue;
    const rss = /^Rss:\s+(\d+) kB$/m.exec(block);
    out.push({ start: Number.parseInt(head[1]!, 16), end: Number.parseInt(head[2]!, 16), rssKb: rss ? Number(rss[1]) : 0 });
  }
  return out;
}

/** Unmap the executable's clean code pages from this process: how many kB were resident, or
 * undefined where this can't be done (not Linux, no glibc, smaps unreadable). */
export function dropCodePages(): number | undefined {
  const madvise = glibc.madvise()?.madvise;
  const smaps = madvise ? ownMappingsSync() : undefined;
  if (!madvise || !smaps) return undefined;
  let dropped = 0;
  for (const m of cleanCodeMappings(smaps, process.execPath)) {
    if (madvise(m.start, m.end - m.start, MADV_DONTNEED) === 0) dropped += m.rssKb;
  }
  return dropped;
}

/** kB of files resident in this process now (`RssFile`, /proc/self/status: its executable's pages
 * above all), or undefined where it can't be read. One small read, cheap enough to take often. */
export function residentFileKb(): number | undefined {
  try {
    const kb = /^RssFile:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    return kb ? Number(kb[1]) : undefined;
  } catch {
    return undefined;
  }
}
