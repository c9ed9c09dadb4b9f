// The Session is the model's only writer (docs/architecture.md "The model"): outside src/model/ no
// code publishes a model change on the bus, none assigns to a field of a workspace or a tab, and
// none calls a pane's owner-only writers (found by type, with the TypeScript compiler, so a saved
// tab's record is not mistaken for one). A pane's label fields are read-only outside: the compiler
// refuses a write.
import { test, expect } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { ROOT } from "./harness";
import { BUS_EVENTS } from "../src/features/events";
import { MODEL_CHANGES } from "../src/model/events";

const SRC = join(ROOT, "src");
const MODEL = join(SRC, "model");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The event types the rest of the daemon may publish: every declared bus event but the model's
 * changes (MODEL_CHANGES in src/model/events.ts). */
function daemonEventTypes(): Set<string> {
  return new Set(Object.keys(BUS_EVENTS).filter((t) => !Object.hasOwn(MODEL_CHANGES, t)));
}

/** `bus.emit({ type: "x"` calls: the types published. */
function emits(text: string): string[] {
  return [...text.matchAll(/bus\.emit\(\s*\{\s*type:\s*"(\w+)"/g)].map((m) => m[1]!);
}

const MODEL_TYPES = new Set(["Tab", "Workspace"]);
const WORKSPACE_TS = join(MODEL, "workspace.ts");
const PANE_TS = join(MODEL, "pane.ts");
/** Pane methods only the Session calls: they change what the model says about a pane. */
const PANE_WRITERS = new Set(["setName", "setBorderFormat", "restoreTitle", "noteForeground", "setHeld", "respawn"]);
/** Pane fields everyone reads and nobody outside the model writes. */
const PANE_READONLY = ["title", "name", "program", "foregroundPid", "titleOwner", "held", "borderFormat"];

const OUTSIDE = sources(SRC).filter((f) => !f.startsWith(MODEL + "/"));
const PROBE = join(ROOT, "test", "fixtures", "model-writer-probe.ts");

/** Assignments (`=`, `+=`, `++`, …) to a field of a model Tab or Workspace, and calls of a pane's
 * owner-only writers, by file. One program (the slow part) serves both tests. */
let writesByFile: Map<string, string[]> | undefined;
function modelFieldWrites(file: string): string[] {
  writesByFile ??= findWrites([...OUTSIDE, PROBE]);
  return writesByFile.get(file) ?? [];
}

function findWrites(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const isModel = (node: ts.Expression): boolean => {
    const symbol = checker.getTypeAtLocation(node).getSymbol() ?? checker.getTypeAtLocation(node).aliasSymbol;
    return !!symbol && MODEL_TYPES.has(symbol.getName()) && (symbol.declarations ?? []).some((d) => d.getSourceFile().fileName === WORKSPACE_TS);
  };
  const isPane = (node: ts.Expression): boolean => {
    const symbol = checker.getTypeAtLocation(node).getSymbol();
    return !!symbol && symbol.getName() === "Pane" && (symbol.declarations ?? []).some((d) => d.getSourceFile().fileName === PANE_TS);
  };
  const byFile = new Map<string, string[]>();
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const found: string[] = [];
    byFile.set(file, found);
    const target = (e: ts.Expression) => {
      if ((ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) && isModel(e.expression)) {
        const { line } = sf.getLineAndCharacterOfPosition(e.getStart());
        found.push(`${relative(ROOT, file)}:${line + 1} writes ${e.getText()}`);
      }
    };
    const visit = (n: ts.Node): void => {
      if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) target(n.left);
      if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) target(n.operand);
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && PANE_WRITERS.has(n.expression.name.text) && isPane(n.expression.expression)) {
        const { line } = sf.getLineAndCharacterOfPosition(n.getStart());
        found.push(`${relative(ROOT, file)}:${line + 1} calls ${n.expression.getText()}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return byFile;
}

test("outside src/model/, nothing publishes a model change or writes a field of a workspace or tab", () => {
  const allowed = daemonEventTypes();
  expect(allowed.size).toBeGreaterThan(0);
  const found: string[] = [];
  for (const file of OUTSIDE) {
    for (const t of emits(readFileSync(file, "utf8"))) if (!allowed.has(t)) found.push(`${relative(ROOT, file)} emits ${t}`);
    found.push(...modelFieldWrites(file));
  }
  expect(found).toEqual([]);
}, 60_000);

test("the checks see a writer when there is one", () => {
  expect(emits(`session.bus.emit({ type: "layout_changed", workspace: ws.name });`).filter((t) => !daemonEventTypes().has(t))).toEqual(["layout_changed"]);
  // A module that writes a model tab's zoom and a workspace's active tab, beside a look-alike record.
  // … and calls a pane's owner-only writer.
  expect(modelFieldWrites(PROBE).map((w) => w.replace(/^.*:(\d+) /, "$1 "))).toEqual(["9 writes tab.zoomed", "10 writes ws.active", "11 calls pane.setName"]);
}, 60_000);

test("a pane's label fields are read-only outside the model: the compiler refuses a write", () => {
  // A module outside src/model/ writing each field, and reading one (no error). Compiled in memory:
  // written to disk, `bun run typecheck` would fail on it.
  const file = join(ROOT, "test", "fixtures", "pane-write-probe.ts");
  const lines = ['import type { Pane } from "../../src/model/pane";', "export function probe(pane: Pane): string {", ...PANE_READONLY.map((f) => `  pane.${f} = pane.${f};`), "  return pane.label;", "}"];
  const text = lines.join("\n");
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true, types: [] };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => (name === file ? ts.createSourceFile(name, text, lang) : getSourceFile(name, lang, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
    const { line } = d.file!.getLineAndCharacterOfPosition(d.start!);
    return `${line + 1} TS${d.code}`;
  });
  // Each write, and nothing else, is refused as a write to a read-only property (TS2540).
  expect(errors).toEqual(PANE_READONLY.map((_, i) => `${i + 3} TS2540`));
}, 60_000);
