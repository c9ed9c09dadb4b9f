// Bun's own PTY (macOS, musl, WS_PLATFORM=portable) can't stop reading, and a raw-mode program
// ignores XOFF: a pane on it bounds its backlog by dropping the oldest unparsed output
// (UNPAUSABLE_BACKLOG_MAX), and what the program writes after the flood still shows.
import { expect, test } from "bun:test";
import { Pane, UNPAUSABLE_BACKLOG_MAX } from "../src/model/pane";
import { spawnBunPty } from "../src/model/pty-bun";
import { waitFor } from "./harness";

const FLOOD = `import os, select, time, tty
tty.setraw(0)
chunk = b"\\x1b[31mflood\\x1b[0m " * 4096
while not select.select([0], [], [], 0)[0]:
    os.write(1, chunk)
os.read(0, 1)
os.write(1, b"\\x1b[2J\\x1b[HFLOOD-OVER\\r\\n")
time.sleep(60)
`;

test("a raw-mode flood on Bun's PTY: the backlog never passes the bound, output is dropped, the end shows", async () => {
  let pane!: Pane;
  let most = 0;
  pane = new Pane(
    { id: 1, argv: ["python3", "-c", FLOOD], cwd: "/tmp", env: { ...process.env, TERM: "xterm-256color" } as Record<string, string>, cols: 80, rows: 24 },
    (o) => {
      const pty = spawnBunPty({
        ...o,
        onData: (b) => {
          o.onData(b);
          most = Math.max(most, pane.backlog);
        },
      });
      expect(pty.canPause).toBe(false);
      return pty;
    },
  );
  try {
    await waitFor("output to be dropped", () => pane.outputDropped > 0, 60_000);
    expect(most).toBeLessThanOrEqual(UNPAUSABLE_BACKLOG_MAX);
    pane.write("x"); // the program stops flooding and clears its screen
    await waitFor("the program's last screen", () => pane.readText().some((l) => l.startsWith("FLOOD-OVER")), 60_000);
    expect(most).toBeLessThanOrEqual(UNPAUSABLE_BACKLOG_MAX);
    expect(pane.backlog).toBeLessThan(UNPAUSABLE_BACKLOG_MAX);
  } finally {
    pane.close();
  }
}, 120_000);
