// A pane's program that asks its terminal a question gets the answer ws's emulator gives, from
// the pane's own state, in order, on its own input, and the user's terminal never sees it.
// Real daemon, a real program in a real PTY reading its input raw.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";
import { XTVERSION_REPLY } from "../src/model/emulator-queries";

const s = useServer();

const ASKER = join(import.meta.dir, "fixtures", "ask-terminal.ts");

/** Run the asker in a new pane with `queries`; what came back on its input. */
async function ask(queries: string[]): Promise<{ got: string; cols: number; rows: number; pane: number }> {
  const file = join(s.root, `answers-${Math.random().toString(36).slice(2)}.json`);
  const r = await s.request({ v: 1, type: "split", pane: 1, cwd: s.root, command: [process.execPath, ASKER, file, JSON.stringify(queries)], focus: false });
  expect(r.type).not.toBe("error");
  await waitFor("the asker's answers", () => existsSync(file), 30000);
  return { ...JSON.parse(readFileSync(file, "utf8")), pane: r.pane };
}

test("DA1, DA2, XTVERSION, DSR, cursor position, window size, DECRQM and the kitty flags are answered in order", async () => {
  const queries = [
    "\x1b[c", // DA1
    "\x1b[>c", // DA2
    "\x1b[>q", // XTVERSION
    "\x1b[5n", // DSR: status
    "\x1b[6n", // cursor position (set to 3;5 by the asker)
    "\x1b[18t", // the size in cells
    "\x1b[?2004$p", // DECRQM: bracketed paste, reset
    "\x1b[?2004h\x1b[?2004$p", // ...and set
    "\x1b[?1006h\x1b[?1015$p\x1b[?1006$p", // mouse encodings ws keeps itself
    "\x1b[?u", // kitty flags: none
    "\x1b[>5u\x1b[?u\x1b[<u", // pushed, asked, popped
  ];
  const a = await ask(queries);
  expect(a.cols).toBeGreaterThan(0);
  expect(a.got).toBe(
    "\x1b[?1;2c" +
      "\x1b[>0;276;0c" +
      XTVERSION_REPLY +
      "\x1b[0n" +
      "\x1b[3;5R" +
      `\x1b[8;${a.rows};${a.cols}t` +
      "\x1b[?2004;2$y" +
      "\x1b[?2004;1$y" +
      "\x1b[?1015;2$y\x1b[?1006;1$y" +
      "\x1b[?0u" +
      "\x1b[?5u",
  );
  expect(XTVERSION_REPLY).toMatch(/^\x1bP>\|ws \d+\.\d+\.\d+\x1b\\$/);
}, 60000);

test("answers go to the asking pane only: the attached client's terminal and the other panes see none", async () => {
  const c = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 120, rows: 40 });
  await c.firstFrame();
  const before = await s.screen(1);
  const a = await ask(["\x1b[c", "\x1b[6n", "\x1b[>q"]);
  expect(a.got).toBe("\x1b[?1;2c\x1b[3;5R" + XTVERSION_REPLY);
  await s.waitScreen(a.pane, "asked");
  // Frames carry the asker's screen (drawn), never an answer's bytes.
  await waitFor("a frame with the asker's screen", () => c.output.includes("asked"));
  for (const answer of ["\x1b[?1;2c", "\x1b[3;5R", "\x1bP>|"]) expect(c.output).not.toContain(answer);
  // The first pane's shell got nothing typed into it.
  expect(await s.screen(1)).toBe(before);
  c.close();
}, 60000);
