// docs/protocol-reference.md is generated from the registry; the committed file must match it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { REFERENCE, render } from "../scripts/protocol-docs";

test("docs/protocol-reference.md is up to date (run `bun run docs`)", () => {
  expect(readFileSync(REFERENCE, "utf8")).toBe(render());
});

test("it documents every message and every error code", () => {
  const text = render();
  for (const t of ["hello", "describe", "pane_read", "wait_for", "subscribe", "split", "report"]) expect(text).toContain(`### ${t}\n`);
  for (const c of ["invalid_params", "too_many_connections", "busy"]) expect(text).toContain(`| \`${c}\` |`);
});
