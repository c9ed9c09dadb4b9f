// Tab at `prefix :` completes arguments as the shell completion does: layout names, pane ids,
// workspace and tab names, templates, a command's words after ws help, by the one rule
// (src/cli-table/value-kind.ts), with values from the server's model (src/ui/prompt-values.ts).
import { expect, test } from "bun:test";
import { completeLine } from "../src/ui/command-line";
import { LAYOUT_PRESETS } from "../src/model/layout-presets";

const values = (kind: string): string[] =>
  ({ pane: ["1", "2", "13"], workspace: ["main", "Games"], tab: ["Build", "logs"], "tab-id": ["1", "4"], template: ["default", "review"], project: ["site"] })[kind] ?? [];

test("a layout's name: the values the registry accepts", () => {
  expect(completeLine("layout select ti", values)).toEqual({ line: "layout select tiled ", choices: [] });
  expect(completeLine("layout select ev", values)).toEqual({ line: "layout select even-", choices: ["even-horizontal", "even-vertical"] });
  expect(completeLine("layout select ", values).choices.sort()).toEqual([...LAYOUT_PRESETS].sort());
});

test("pane ids, in a positional argument and after a flag that takes one", () => {
  expect(completeLine("pane zoom ", values).choices).toEqual(["1", "2", "13"]);
  expect(completeLine("pane zoom 1", values)).toEqual({ line: "pane zoom 1", choices: ["1", "13"] });
  expect(completeLine("pane swap 1 ", values).choices).toEqual(["1", "2", "13"]);
  expect(completeLine("layout export --pane 2", values)).toEqual({ line: "layout export --pane 2 ", choices: [] });
  // A flag that takes nothing is skipped; the next word is the argument after it.
  expect(completeLine("pane send --enter ", values).choices).toEqual(["1", "2", "13"]);
});

test("workspaces, tabs and templates by name; ws help takes command words", () => {
  expect(completeLine("workspace focus G", values)).toEqual({ line: "workspace focus Games ", choices: [] });
  expect(completeLine("tab close B", values)).toEqual({ line: "tab close Build ", choices: [] });
  expect(completeLine("new rev", values)).toEqual({ line: "new review ", choices: [] });
  expect(completeLine("help pa", values)).toEqual({ line: "help pane ", choices: [] });
});

test("command words and flags as before; a name with a blank is quoted as the line is split", () => {
  expect(completeLine("spl", values)).toEqual({ line: "split ", choices: [] });
  expect(completeLine("split --bel", values)).toEqual({ line: "split --below ", choices: [] });
  expect(completeLine("workspace focus M", (k) => (k === "workspace" ? ["My work"] : []))).toEqual({ line: "workspace focus 'My work' ", choices: [] });
  // Nothing is offered after -- (the program's words) or where the kind is unknown.
  expect(completeLine("split -- ", values).choices).toEqual([]);
  expect(completeLine("notify ", values).choices).toEqual([]);
});
