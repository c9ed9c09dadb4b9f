// Printable text typed into the focused pane goes there as it came (typeStraight), skipping the
// key events, but only where each of its keys would have reached the pane as itself: anything
// that could make a key mean something else leaves it, untouched, to routeKey. A real in-process
// Session and Interface, real panes in real PTYs running cat.
import { afterEach, expect, test } from "bun:test";
import { Session } from "../src/model/session";
import { paneBaseEnv } from "../src/model/launch";
import { Interface } from "../src/ui/interface";
import { defaultKeymap } from "../src/ui/keymap";
import { typeStraight } from "../src/ui/input-router";
import { waitFor } from "./harness";

const sessions: Session[] = [];
const uis: Interface[] = [];
afterEach(async () => {
  for (const ui of uis.splice(0)) ui.dispose();
  for (const s of sessions.splice(0)) await s.killAll("SIGKILL");
});

/** A session whose pane runs `cat` in raw mode (after printing `lead`), and its interface. */
async function scene(lead = "") {
  const s = new Session({ socketPath: "/tmp/ws-type-straight-unit.sock", baseEnv: paneBaseEnv({ ...process.env, SHELL: "/bin/sh" }), onEmpty() {} });
  sessions.push(s);
  s.setClientSize(80, 24);
  s.newWorkspace("main", { argv: ["sh", "-c", `stty raw -echo; printf '${lead}ready'; exec cat`], cwd: "/tmp" });
  const pane = s.pane(1);
  await waitFor("the pane's program", () => pane.readText().join("").includes("ready"));
  const ui = new Interface({ session: s, keymap: defaultKeymap(), build: "test", shutdown() {} });
  uis.push(ui);
  return { s, ui, pane };
}

const bytes = (text: string) => new TextEncoder().encode(text);

test("text typed with nothing in the way is written to the focused pane as it is, and counts as typing into it", async () => {
  const { ui, pane } = await scene();
  expect(typeStraight(ui, bytes("hello world~"))).toBe(true);
  await waitFor("cat's echo", () => pane.readText().join("").includes("readyhello world~"));
  // Its output is now the echo the person waits for: drawn at once.
  expect(ui.frames.lastTyped().pane).toBe(pane.id);
});

test("whatever could make a key mean something else leaves the text to the key router, with nothing done", async () => {
  const { s, ui, pane } = await scene();
  const declined = (why: string, text = "abc") => {
    const before = ui.frames.lastTyped().at;
    expect({ why, taken: typeStraight(ui, bytes(text)) }).toEqual({ why, taken: false });
    expect(ui.frames.lastTyped().at).toBe(before);
  };
  ui.keymap.root.set("b", "split-window");
  declined("a root binding on one of the keys");
  ui.keymap.root.delete("b");
  ui.keymap.root.set("Space", "split-window");
  declined("a root binding on the space key", "a c");
  ui.keymap.root.delete("Space");
  const prefix = ui.keymap.prefix;
  ui.keymap.prefix = "c";
  declined("the prefix is one of the keys");
  ui.keymap.prefix = prefix;
  ui.prefixPending = true;
  declined("the prefix was typed");
  ui.prefixPending = false;
  ui.message = "a notice a key clears";
  declined("a message on the status line");
  ui.message = undefined;
  ui.ask("name", "", () => {});
  declined("a prompt takes the keys");
  ui.prompt = undefined;
  ui.paneNumbers = true;
  declined("display-panes");
  ui.paneNumbers = undefined;
  const tab = s.activeTab(s.currentWorkspace);
  ui.syncTabs.add(tab.id);
  declined("a synchronized tab types into every pane");
  ui.syncTabs.delete(tab.id);
  // Nothing in the way any more: taken.
  expect(typeStraight(ui, bytes("abc"))).toBe(true);
  await waitFor("cat's echo", () => pane.readText().join("").includes("readyabc"));
});

test("a program that wants every key as an escape code (kitty's flag 8) gets its keys encoded, not as text", async () => {
  const { ui, pane } = await scene("\\033[>8u");
  expect(pane.emulator.modes.kittyFlags & 8).toBe(8);
  expect(typeStraight(ui, bytes("a"))).toBe(false);
});

test("a pane whose program has exited takes no text", async () => {
  const { ui, pane } = await scene();
  pane.kill("SIGKILL");
  await waitFor("the pane's exit", () => pane.exited);
  expect(typeStraight(ui, bytes("a"))).toBe(false);
});
