// docs/protocol-reference.md is generated from the registry; the committed file must match it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { CLI_DOC, REFERENCE, render, renderCliDoc } from "../scripts/protocol-docs";
import { EXIT_TABLE } from "../src/cli/exit-status";

test("docs/protocol-reference.md is up to date (run `bun run docs`)", () => {
  expect(readFileSync(REFERENCE, "utf8")).toBe(render());
});

test("docs/cli.md's exit-status table is the CLI's, row by row (run `bun run docs`)", () => {
  const text = readFileSync(CLI_DOC, "utf8");
  expect(text).toBe(renderCliDoc(text));
  for (const row of EXIT_TABLE) expect(text).toContain(`| ${row.status} |`);
});

test("it documents every message and every error code", () => {
  const text = render();
  for (const t of ["hello", "describe", "pane_read", "wait_for", "subscribe", "split", "report"]) expect(text).toContain(`### ${t}\n`);
  for (const c of ["invalid_params", "too_many_connections", "busy"]) expect(text).toContain(`| \`${c}\` |`);
});
