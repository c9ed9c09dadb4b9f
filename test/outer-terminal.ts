// The user's terminal, for tests: what an attach client receives, replayed into a headless xterm
// with modern widths (Unicode 15, grapheme clusters: what Ghostty, kitty and WezTerm draw), so a
// test reads the screen the person would see, not ws's idea of it.
import { Terminal } from "@xterm/headless";
import { useModernWidths } from "../src/model/emulator-unicode";
import { waitFor } from "./harness";
import { RawAttach } from "./raw-attach";

export class OuterTerminal {
  readonly term: Terminal;
  private pending: Promise<void> = Promise.resolve();
  /** Everything received, for checks on the bytes themselves. */
  bytes = "";

  constructor(client: RawAttach, cols: number, rows: number) {
    this.term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
    useModernWidths(this.term);
    client.onText = (t) => {
      this.bytes += t;
      this.pending = this.pending.then(() => new Promise<void>((r) => this.term.write(t, r)));
    };
  }

  /** The screen's rows as text (trailing blanks dropped), once everything received is drawn. */
  async rows(): Promise<string[]> {
    await this.pending;
    const b = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) out.push(b.getLine(y)?.translateToString(true) ?? "");
    return out;
  }

  /** Row y's cells: each cell's text and width (0: the right half of a wide character). */
  async cells(y: number): Promise<{ ch: string; w: number }[]> {
    await this.pending;
    const line = this.term.buffer.active.getLine(y)!;
    const out: { ch: string; w: number }[] = [];
    for (let x = 0; x < this.term.cols; x++) {
      const c = line.getCell(x)!;
      out.push({ ch: c.getChars(), w: c.getWidth() });
    }
    return out;
  }
}

/**
 * A person at a terminal attached to the server on `sock`: the raw attach client, its output drawn
 * on an OuterTerminal, keys typed as they press them.
 */
export async function attachTerminal(sock: string, cols: number, rows: number) {
  const client = await RawAttach.open(sock, { v: 1, type: "attach", cols, rows });
  const outer = new OuterTerminal(client, cols, rows);
  return {
    client,
    /** Every byte of output received (for checks on escape sequences). */
    raw: () => outer.bytes,
    screen: () => outer.rows(),
    key: (char: string, modifiers = "") => client.send({ Key: { code: char === "Enter" ? "Enter" : { Char: char }, modifiers, kind: "Press", state: "" } }),
    close: () => client.close(),
  };
}

/** Open the Dashboard as a person does (prefix, then a) and wait until it shows its Needs you rows;
 * the screen's lines then. */
export function openDashboard(c: Pick<Awaited<ReturnType<typeof attachTerminal>>, "key" | "screen">): Promise<string[]> {
  c.key(" ", "CONTROL");
  c.key("a");
  return waitFor("the Dashboard", async () => {
    const lines = await c.screen();
    return lines.some((l) => l.includes("Dashboard")) && lines.some((l) => l.includes("Needs you")) ? lines : undefined;
  }, 20_000);
}
