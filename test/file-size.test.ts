// No module with three jobs: a file in src/ over MAX_LINES lines must say at its
// top, in its leading comment, why it is one piece ("One piece: …"), so a long file is a decision
// someone wrote down, not an accident; and none is over HARD_MAX_LINES at all.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const MAX_LINES = 500;
/** The bound no file passes, whatever its comment says. */
const HARD_MAX_LINES = 600;
const SRC = join(import.meta.dir, "../src");

/** The comment lines a file starts with (blank lines allowed between them). */
function leadingComment(text: string): string {
  const out: string[] = [];
  let inBlock = false;
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (inBlock) {
      out.push(t);
      if (t.includes("*/")) inBlock = false;
    } else if (t.startsWith("//")) out.push(t);
    else if (t.startsWith("/*")) {
      out.push(t);
      inBlock = !t.includes("*/");
    } else if (t !== "") break;
  }
  return out.join("\n");
}

const saysWhyOnePiece = (text: string) => /\bone piece\b/i.test(leadingComment(text));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

test(`no file in src/ is over ${MAX_LINES} lines unless its top comment says why it is one piece`, () => {
  const files = sources(SRC);
  expect(files.length).toBeGreaterThan(100);
  const tooLong: string[] = [];
  for (const f of files) {
    const rel = relative(SRC, f);
    const text = readFileSync(f, "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_LINES && !saysWhyOnePiece(text)) tooLong.push(`${rel} (${lines} lines)`);
  }
  expect(tooLong).toEqual([]);
});

test(`no file in src/ is over ${HARD_MAX_LINES} lines, one piece or not`, () => {
  const over = sources(SRC)
    .map((f) => {
      const text = readFileSync(f, "utf8");
      return { rel: relative(SRC, f), lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) };
    })
    .filter((f) => f.lines > HARD_MAX_LINES)
    .map((f) => `${f.rel} (${f.lines} lines)`);
  expect(over).toEqual([]);
});

test("the check reads only the leading comment", () => {
  expect(saysWhyOnePiece("// A parser.\n// One piece: the grammar's states share one table.\nexport {};\n")).toBe(true);
  expect(saysWhyOnePiece("/**\n * One piece: …\n */\n\nconst x = 1;\n")).toBe(true);
  expect(saysWhyOnePiece("// A parser.\nexport {};\n// one piece\n")).toBe(false);
  expect(saysWhyOnePiece("const x = 1; // one piece\n")).toBe(false);
});
