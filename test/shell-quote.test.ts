// The one shell quoter (src/shell-quote.ts): each word, quoted, reaches a real
// shell as exactly that word, whatever it holds.
import { describe, expect, test } from "bun:test";
import { quoteFish, quoteSh, shellWord } from "../src/shell-quote";

const WORDS = ["plain", "", "two words", "it's", "''", `"double"`, "$HOME", "${HOME}", "`id`", "$(id)", "a\\b", "ends\\", "\\'", "*", "~", "#not-a-comment", "a;b|c&d", "line\nbreak", "tab\there", "ünï €", "-n"];

/** What `shell` prints for `printf %s <quoted>`: the word it parsed. */
function echoed(shell: string, quoted: string): string {
  const r = Bun.spawnSync([shell, "-c", `printf '%s' ${quoted}`], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
  // fish -c exits 0 on a syntax error, so its complaint on stderr counts as a failure too.
  if (r.exitCode !== 0 || r.stderr.length) throw new Error(`${shell} failed on ${quoted}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

describe("quoteSh", () => {
  for (const shell of ["sh", "bash", "zsh"]) {
    test.skipIf(!Bun.which(shell))(`${shell} reads each quoted word back as it was`, () => {
      for (const w of WORDS) expect(echoed(shell, quoteSh(w))).toBe(w);
    });
  }
  test("is the single-quote form: ' closed, escaped, reopened", () => {
    expect(quoteSh("it's")).toBe(`'it'\\''s'`);
  });
});

test.skipIf(!Bun.which("fish"))("quoteFish: fish reads each quoted word back as it was (quoteSh's form would not, for a backslash)", () => {
  for (const w of WORDS) expect(echoed("fish", quoteFish(w))).toBe(w);
  expect(() => echoed("fish", quoteSh("ends\\"))).toThrow();
  expect(echoed("fish", quoteSh("a\\\\b"))).toBe("a\\b");
});

test("shellWord leaves a safe word bare and quotes the rest, which sh reads back", () => {
  expect(shellWord("/usr/bin/ws")).toBe("/usr/bin/ws");
  expect(shellWord("--agent")).toBe("--agent");
  for (const w of WORDS) {
    expect(echoed("sh", shellWord(w))).toBe(w);
    if (/[\s'"$`\\*~#;|&]/.test(w) || w === "") expect(shellWord(w)).toBe(quoteSh(w));
  }
});
