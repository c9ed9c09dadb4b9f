// Every control byte a terminal without extended keys sends (0x00–0x1f, 0x7f) reaches a raw reader
// in a pane (test/fixtures/key-reader.ts) as xterm and kitty would send that key, in every key
// encoding the program can ask for: legacy, modifyOtherKeys 1 and 2, kitty flags 1 and 9. The
// bytes come from a real `ws attach` in tmux 3.3a (send-keys -H), through the real client and
// server; the expected bytes are the encoder table's (control-key-table.ts).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor, wsArgv } from "./harness";
import { serverWithTmux } from "./tmux-driver";
import { CONTROL_BYTES, KEY_MODES, expectedForControlByte } from "./control-key-table";

const { s, tmux } = serverWithTmux();

const READER = join(import.meta.dir, "fixtures", "key-reader.ts");
const hex = (bytes: string) => [...Buffer.from(bytes, "latin1")].map((b) => b.toString(16).padStart(2, "0") + " ").join("");

test("each control byte reaches a program in each key encoding as xterm and kitty send that key", async () => {
  const readers: { mode: string; pane: number; got: () => string }[] = [];
  for (const [mode, { setup }] of Object.entries(KEY_MODES)) {
    const log = join(s.root, `control-${mode}.log`);
    const pane = Number((await s.ok(["tab", "new", "--cwd", s.root, "--", process.execPath, READER, log, setup])).trim());
    await s.waitScreen(pane, "READY");
    readers.push({ mode, pane, got: () => readFileSync(log, "latin1") });
  }
  const name = "bytes";
  await tmux.tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", `${wsArgv().join(" ")} attach; echo "[ws exited $?]"; sleep 3600`);
  await tmux.tmux("set-option", "-t", `=${name}:`, "status", "off");
  await tmux.waitFor(name, /\[main\] tab \d+\/\d+/);
  const got: string[] = [], want: string[] = [];
  for (const r of readers) {
    expect((await s.request({ v: 5, type: "pane_focus", pane: r.pane })).type).toBe("ok");
    // The status line naming the pane: the frame that shows it focused has reached tmux.
    await tmux.waitFor(name, new RegExp(`\\] tab \\d+/\\d+ +pane ${r.pane}\\b`));
    for (const b of CONTROL_BYTES) {
      const before = r.got().length;
      const expected = hex(expectedForControlByte(b, r.mode));
      const byte = b.toString(16).padStart(2, "0");
      // NUL is Ctrl+Space, ws's prefix: pressed twice it goes to the program (send-prefix), as in tmux.
      await tmux.keys(name, "-H", ...(b === 0 ? [byte, byte] : [byte]));
      try {
        await waitFor(`${r.mode}: the reader to get byte ${byte}'s key`, () => r.got().length - before >= expected.length, 10_000);
      } catch {}
      got.push(`${r.mode} ${byte} → ${r.got().slice(before)}`);
      want.push(`${r.mode} ${byte} → ${expected}`);
    }
  }
  expect(got).toEqual(want);
  await tmux.keys(name, "C-Space", "d");
  await tmux.waitFor(name, "[ws exited 0]");
}, 180_000);
