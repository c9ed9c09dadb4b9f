// Every relative link in README.md and docs/ leads somewhere: the file (or directory) exists, and
// an anchor (`file.md#section`, or `#section` within the page) names a heading of that page, as
// GitHub makes heading anchors, or an `id`/`name` the page sets. Links inside code are not links.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./harness";

function markdownFiles(): string[] {
  const files = [join(ROOT, "README.md")];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(".md")) files.push(join(dir, e.name));
    }
  };
  walk(join(ROOT, "docs"));
  return files;
}

/** The page's text outside fenced code blocks and inline code spans. */
function prose(text: string): string {
  return text
    .replace(/^(```|~~~)[^]*?^\1/gm, "")
    .replace(/(`+)[^`]*?\1/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (hyphens and underscores stay),
 * spaces made hyphens; a repeated heading gets -1, -2… */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of text.replace(/^(```|~~~)[^]*?^\1/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const plain = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

test("every relative link and anchor in README.md and docs/ resolves", () => {
  const broken: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let a = anchorsOf.get(file);
    if (!a) anchorsOf.set(file, (a = headingAnchors(readFileSync(file, "utf8"))));
    return a;
  };
  let links = 0;
  for (const file of markdownFiles()) {
    const text = prose(readFileSync(file, "utf8"));
    const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      links++;
      const [path, anchor] = target.split("#", 2) as [string, string | undefined];
      const dest = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
      const where = `${relative(ROOT, file)}: ${target}`;
      if (!existsSync(dest)) broken.push(`${where} (no such file)`);
      else if (anchor !== undefined && (statSync(dest).isDirectory() || !dest.endsWith(".md") || !anchors(dest).has(decodeURIComponent(anchor)))) broken.push(`${where} (no such anchor)`);
    }
  }
  expect(links).toBeGreaterThan(50);
  expect(broken).toEqual([]);
});

test("the anchors are GitHub's: punctuation dropped, spaces made hyphens, repeats numbered", () => {
  const a = headingAnchors("# Layers: what handlers import\n## `ws report`, fast\n```\n# not a heading\n```\n## Layers: what handlers import\n<a id=\"custom\"></a>\n");
  expect([...a]).toEqual(["layers-what-handlers-import", "ws-report-fast", "layers-what-handlers-import-1", "custom"]);
});
