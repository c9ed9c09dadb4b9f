// The server logs through one logger (src/log.ts, docs/architecture.md "Logging"): no module the
// daemon runs writes to the console or stderr itself, so every line has its time and level, obeys
// WS_LOG_LEVEL and counts towards the log's rotation. The CLI and the tmux shim print to the
// person, and main.ts picks the face: they are left out.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./harness";

const PRINTING = ["src/cli/", "src/tmux-shim/", "src/main.ts", "src/log.ts"];
const BARE = /\bconsole\.(log|warn|info|debug|error|trace)\(|process\.stderr\.write\(/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** `file:line` of every bare console or stderr write in `text`, comments left out. */
function bareWrites(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (BARE.test(line.replace(/\/\/.*$/, "")) && !/^\s*(\*|\/\*)/.test(line) ? [`${file}:${i + 1}`] : []));
}

test("no module of the server writes to the console or stderr but through src/log.ts", () => {
  const found = sources(join(ROOT, "src"))
    .map((f) => relative(ROOT, f))
    .filter((f) => !PRINTING.some((p) => f.startsWith(p)))
    .flatMap((f) => bareWrites(f, readFileSync(join(ROOT, f), "utf8")));
  expect(found).toEqual([]);
});

test("the check sees a bare write, and not one in a comment", () => {
  expect(bareWrites("x.ts", 'a();\n  console.error("boom", e);\n// console.error(x)\n * console.log(y)\nprocess.stderr.write(z);')).toEqual(["x.ts:2", "x.ts:5"]);
});
