// `pane-border-status top` with pane-border-format set through the tmux shim, as
// Claude Code's agent teams set them (select-pane -T, set-option -p pane-border-format
// "#[fg=COLOUR,bold] #{pane_title} #[default]", set-option -w pane-border-status top), drawn in
// ws's label rows as tmux 3.3a draws its border status row: the same calls made against ws through
// the shim and against a real tmux, each shown in a terminal (a tmux window running `ws attach`,
// and one attached to the real tmux), the label rows read back cell by cell and compared.
import { describe, expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { wsArgv } from "./harness";
import { serverWithTmux } from "./tmux-driver";

const { s, tmux } = serverWithTmux();

/** A row of a terminal's capture (with its styles) as cells: text, and bold/reverse/fg. */
async function cells(window: string, row: number): Promise<{ ch: string; style: string }[]> {
  const line = (await tmux.tmux("capture-pane", "-p", "-e", "-t", `=${window}:`)).split("\n")[row] ?? "";
  const term = new Terminal({ cols: 80, rows: 1, allowProposedApi: true });
  await new Promise<void>((r) => term.write(line, r));
  const b = term.buffer.active.getLine(0)!;
  const out: { ch: string; style: string }[] = [];
  for (let x = 0; x < 80; x++) {
    const c = b.getCell(x)!;
    // 16 colours and the first 16 of 256 are one colour, however each program wrote it.
    const fg = c.isFgDefault() ? "default" : c.isFgRGB() ? `#${c.getFgColor().toString(16)}` : `p${c.getFgColor()}`;
    out.push({ ch: c.getChars() || " ", style: `${c.isBold() ? "bold " : ""}${c.isInverse() ? "reverse " : ""}${fg}` });
  }
  term.dispose();
  return out;
}

const text = (cs: { ch: string }[]) => cs.map((c) => c.ch).join("");

/** The label's cells: from two cells in, as long as the label, with their styles. */
const label = (cs: { ch: string; style: string }[], len: number) => cs.slice(2, 2 + len);

describe("pane-border-status top through the tmux shim", () => {
  test("ws's label rows show the panes' pane-border-formats as tmux 3.3a's border status row does", async () => {
    // The real tmux: a window of 80×19 (ws's tab area under an 80×21 terminal: tab bar and status).
    const inner = new (tmux.constructor as new (env: Record<string, string>) => typeof tmux)(s.env);
    try {
      await inner.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "19", "sh", ";", "set", "-g", "status", "off");
      const tmuxCalls = async (run: (args: string[]) => Promise<string>, lead: string) => {
        const mate = (await run(["split-window", "-d", "-h", "-t", lead, "-P", "-F", "#{pane_id}", "--", "cat"])).trim();
        await run(["select-pane", "-t", lead, "-T", "leader"]);
        await run(["select-pane", "-t", mate, "-T", "researcher"]);
        await run(["set-option", "-p", "-t", mate, "pane-border-format", "#[fg=blue,bold] #{pane_title} #[default]"]);
        await run(["set-option", "-w", "-t", lead, "pane-border-status", "top"]);
      };
      await tmuxCalls((a) => inner.tmux(...a), "%0");
      await tmux.open("real", `TMUX= tmux -L ${inner.sock} -f /dev/null attach -t t`, 80, 19);

      // ws: the same calls through the shim, from its first pane, shown by `ws attach`.
      const lead = (await s.v6({ type: "pane_list" })).panes[0]!.pane;
      const dir = realpathSync(mkdtempSync(join(s.root, "shim-")));
      const shim = async (args: string[]) => {
        const r = await s.run(["tmux-shim", "--", "tmux", ...args], { env: { WS_PANE_ID: String(lead), WS_SOCKET: s.sock }, cwd: dir });
        if (r.code !== 0) throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
        return r.stdout;
      };
      await tmuxCalls(shim, `%${lead}`);
      await tmux.open("ws", `${wsArgv().join(" ")} attach`, 80, 21);

      await tmux.waitFor("real", "researcher");
      await tmux.waitFor("ws", "researcher");
      const real = await cells("real", 0);
      const ours = await cells("ws", 1); // row 0 is ws's tab bar
      // Left pane (columns 0–39): tmux's default format, the active pane's index reversed.
      expect(text(ours.slice(0, 40))).toBe(text(real.slice(0, 40)));
      expect(text(real.slice(0, 40))).toBe(`──0 "leader"${"─".repeat(28)}`);
      expect(label(ours, 1)[0]!.style).toContain("reverse");
      expect(label(real, 1)[0]!.style).toContain("reverse");
      // Right pane (from column 41): the format's colour and bold. The line between them meets
      // the row as tmux's does (┬): the whole row is tmux's.
      const l = " researcher ".length;
      expect(text(ours)).toBe(text(real));
      expect(real[40]!.ch).toBe("┬");
      expect(label(ours.slice(41), l)).toEqual(label(real.slice(41), l));
      expect(label(real.slice(41), l).every((c) => c.style === "bold p4")).toBe(true);

      // A global format reaches the panes without their own; a bad status is refused as tmux
      // refuses it; `off` gives the row back to ws's own label.
      await shim(["set-option", "-g", "pane-border-format", "x#{pane_index}"]);
      await tmux.waitFor("ws", /^──x0─/m);
      expect(text((await cells("ws", 1)).slice(41))).toContain(" researcher ");
      const bad = await s.run(["tmux-shim", "--", "tmux", "set-option", "-w", "pane-border-status", "bogus"], { env: { WS_PANE_ID: String(lead), WS_SOCKET: s.sock }, cwd: dir });
      expect([bad.code, bad.stderr]).toEqual([1, "unknown value: bogus\n"]);
      await shim(["set-option", "-w", "pane-border-status", "off"]);
      await tmux.waitFor("ws", `─ ${lead}: leader ─`);
      expect((await cells("ws", 1))[40]!.ch).toBe("│");
    } finally {
      await inner.kill();
    }
  }, 60_000);
});
