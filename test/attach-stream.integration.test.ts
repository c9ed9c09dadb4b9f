// The attach stream at the protocol level: a raw client whose OUTPUT frames
// are replayed into an xterm, so the screen it would show can be read.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { TestServer, waitFor } from "./harness";
import { FrameDecoder, FRAME_OUTPUT, FRAME_EXIT, encodeEvent, encodeFrame, frameText } from "../src/protocol/frames";

let server: TestServer;
beforeAll(async () => {
  server = await new TestServer().start();
});
afterAll(() => server.stop());

class RawClient {
  term: Terminal;
  exit?: any;
  bytes = 0;
  private sock: any;
  constructor(cols: number, rows: number) {
    this.term = new Terminal({ cols, rows, allowProposedApi: true });
  }
  async attach(extra: Record<string, unknown> = {}) {
    const d = new FrameDecoder();
    const { cols, rows } = this.term;
    this.sock = await Bun.connect({
      unix: server.sock,
      socket: {
        open: (s) => void s.write(JSON.stringify({ v: 1, type: "attach", cols, rows, ...extra }) + "\n"),
        data: (_s, b) => {
          for (const f of d.push(b)) {
            if (f.kind === FRAME_OUTPUT) {
              this.bytes += f.payload.length;
              this.term.write(f.payload);
            }
            if (f.kind === FRAME_EXIT) this.exit = JSON.parse(frameText(f));
          }
        },
      },
    });
    return this;
  }
  send(ev: unknown) {
    this.sock.write(encodeEvent(ev));
  }
  raw(bytes: Uint8Array) {
    this.sock.write(bytes);
  }
  screen(): string {
    const b = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) out.push(b.getLine(b.baseY + y)?.translateToString(true) ?? "");
    return out.join("\n");
  }
  async until(what: string, pred: (s: string) => boolean) {
    return waitFor(what, () => new Promise<string | undefined>((r) => this.term.write("", () => r(pred(this.screen()) ? this.screen() : undefined))));
  }
  close() {
    this.sock.end();
  }
}

test("a build that differs from the server's gets a restart notice", async () => {
  const c = await new RawClient(120, 30).attach({ build: "some-other-build" });
  const s = await c.until("the notice", (s) => s.includes("restart"));
  expect(s).toMatch(/your ws is some-other-build: restart it/);
  c.close();
});

test("open on attach opens that tab and shows it", async () => {
  const c = await new RawClient(120, 30).attach({ open: { cwd: server.root, command: ["sh", "-c", "echo opened-$((5*5)); exec cat"], name: "Opened" } });
  const s = await c.until("the opened tab", (s) => s.includes("opened-25") && s.includes(":Opened"));
  expect(s).toContain("tab 2/2");
  c.close();
});

test("resize events re-layout the screen; unknown frames and events are ignored", async () => {
  const c = await new RawClient(100, 30).attach();
  await c.until("first screen", (s) => s.includes("[main]"));
  c.raw(encodeFrame(7, "what is this"));
  c.send({ Launch: "missiles" });
  c.send({ Key: { code: { Char: "x" }, modifiers: "NONE", kind: "Release", state: "" } });
  c.term.resize(80, 20);
  c.send({ Resize: [80, 20] });
  const s = await c.until("the status line on the new last row", (s) => s.split("\n")[19]!.includes("[main]"));
  expect(s.split("\n")[0]!.trimEnd().endsWith("main")).toBe(true);
  const list = await server.list();
  expect(list[0].tabs.length).toBeGreaterThan(0);
  c.close();
});

test("idle panes cost the client nothing", async () => {
  const c = await new RawClient(100, 30).attach();
  await c.until("first screen", (s) => s.includes("[main]"));
  // Wait until frames stop (shell prompt settled), then watch a quiet second.
  let last = -1;
  await waitFor("output to settle", async () => {
    const b = c.bytes;
    await Bun.sleep(200);
    const settled = b === last;
    last = c.bytes;
    return settled;
  });
  const before = c.bytes;
  // Showing that nothing happens needs a window of time; this is the one place we wait on a clock.
  await Bun.sleep(1000);
  expect(c.bytes - before).toBe(0);
  c.close();
});
