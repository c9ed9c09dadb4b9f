// The libproc structs src/platform/darwin.ts reads on macOS, where this suite can't call them:
// each is built here from <sys/proc_info.h>'s field list with C's layout rules (every field at a
// multiple of its size), so the offsets the reader uses are checked against the header, not
// against themselves. (The macOS CI job calls the real libproc.)
import { expect, test } from "bun:test";
import { BSDINFO_SIZE, parseBsdInfo, parseVnodePathInfo, VNODEPATHINFO_SIZE } from "../src/platform/darwin";

type Field = [name: string, size: number, align?: number];

/** Offsets and total size of a C struct (LP64, natural alignment). */
function layout(fields: Field[]): { at: Record<string, number>; size: number } {
  const at: Record<string, number> = {};
  let off = 0;
  let most = 1;
  for (const [name, size, align = size] of fields) {
    off = Math.ceil(off / align) * align;
    at[name] = off;
    off += size;
    most = Math.max(most, align);
  }
  return { at, size: Math.ceil(off / most) * most };
}

// struct proc_bsdinfo
const BSDINFO: Field[] = [
  ["pbi_flags", 4], ["pbi_status", 4], ["pbi_xstatus", 4], ["pbi_pid", 4], ["pbi_ppid", 4],
  ["pbi_uid", 4], ["pbi_gid", 4], ["pbi_ruid", 4], ["pbi_rgid", 4], ["pbi_svuid", 4], ["pbi_svgid", 4],
  ["rfu_1", 4], ["pbi_comm", 16, 1], ["pbi_name", 32, 1], ["pbi_nfiles", 4], ["pbi_pgid", 4],
  ["pbi_pjobc", 4], ["e_tdev", 4], ["e_tpgid", 4], ["pbi_nice", 4], ["pbi_start_tvsec", 8], ["pbi_start_tvusec", 8],
];
// struct vinfo_stat, then struct vnode_info { vinfo_stat; int vi_type; int vi_pad; fsid_t vi_fsid }
const VINFO_STAT: Field[] = [
  ["vst_dev", 4], ["vst_mode", 2], ["vst_nlink", 2], ["vst_ino", 8], ["vst_uid", 4], ["vst_gid", 4],
  ["vst_atime", 8], ["vst_atimensec", 8], ["vst_mtime", 8], ["vst_mtimensec", 8], ["vst_ctime", 8], ["vst_ctimensec", 8],
  ["vst_birthtime", 8], ["vst_birthtimensec", 8], ["vst_size", 8], ["vst_blocks", 8], ["vst_blksize", 4],
  ["vst_flags", 4], ["vst_gen", 4], ["vst_rdev", 4], ["vst_qspare", 16, 8],
];

test("proc_bsdinfo: state, parent, groups and name from where the header puts them", () => {
  const { at, size } = layout(BSDINFO);
  expect(size).toBe(BSDINFO_SIZE);
  const buf = new Uint8Array(size);
  const v = new DataView(buf.buffer);
  v.setUint32(at.pbi_status!, 4, true); // SSTOP
  v.setUint32(at.pbi_pid!, 4242, true);
  v.setUint32(at.pbi_ppid!, 17, true);
  v.setUint32(at.pbi_pgid!, 4000, true);
  v.setUint32(at.e_tpgid!, 4100, true);
  buf.set(new TextEncoder().encode("sixteen-chars-xx"), at.pbi_comm!); // fills the field: no NUL
  expect(parseBsdInfo(buf, 4242)).toEqual({ state: "T", ppid: 17, pgid: 4000, tpgid: 4100, comm: "sixteen-chars-xx" });
  // An answer about another pid (a layout not the one assumed) is no answer.
  expect(parseBsdInfo(buf, 4243)).toBeUndefined();
});

test("proc_vnodepathinfo: the cwd is pvi_cdir's path, after its vnode_info", () => {
  const vinfo = layout(VINFO_STAT);
  const vnodeInfo = layout([["vi_stat", vinfo.size, 8], ["vi_type", 4], ["vi_pad", 4], ["vi_fsid", 8, 4]]);
  const path = layout([["vip_vi", vnodeInfo.size, 8], ["vip_path", 1024, 1]]);
  const info = layout([["pvi_cdir", path.size, 8], ["pvi_rdir", path.size, 8]]);
  expect(info.size).toBe(VNODEPATHINFO_SIZE);
  const buf = new Uint8Array(info.size);
  const enc = new TextEncoder();
  buf.set(enc.encode("/Users/me/project\0"), info.at.pvi_cdir! + path.at.vip_path!);
  buf.set(enc.encode("/\0"), info.at.pvi_rdir! + path.at.vip_path!);
  expect(parseVnodePathInfo(buf)).toBe("/Users/me/project");
  expect(parseVnodePathInfo(new Uint8Array(info.size))).toBeUndefined();
});
