// The attach stream at the protocol level: a raw client whose OUTPUT frames
// are replayed into an xterm, so the screen it would show can be read.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer, waitFor } from "./harness";
import { encodeFrame } from "../src/protocol/frames";
import { OuterTerminal } from "./outer-terminal";
import { RawAttach } from "./raw-attach";

let server: TestServer;
beforeAll(async () => {
  server = await new TestServer().start();
});
afterAll(() => server.stop());

/** A raw attach client (test/raw-attach.ts) whose output is drawn on a terminal emulator. */
class RawClient {
  private client!: RawAttach;
  private outer!: OuterTerminal;
  constructor(
    private cols: number,
    private rows: number,
  ) {}
  async attach(extra: Record<string, unknown> = {}) {
    this.client = await RawAttach.open(server.sock, { v: 1, type: "attach", cols: this.cols, rows: this.rows, ...extra });
    this.outer = new OuterTerminal(this.client, this.cols, this.rows);
    return this;
  }
  get term() {
    return this.outer.term;
  }
  get exit() {
    return this.client.exit;
  }
  /** OUTPUT bytes received so far. */
  get bytes() {
    return this.client.outputBytes;
  }
  send(ev: unknown) {
    this.client.send(ev);
  }
  raw(bytes: Uint8Array) {
    this.client.write(bytes);
  }
  async screen(): Promise<string> {
    return (await this.outer.rows()).join("\n");
  }
  until(what: string, pred: (s: string) => boolean) {
    return waitFor(what, async () => {
      const s = await this.screen();
      return pred(s) ? s : undefined;
    });
  }
  close() {
    this.client.close();
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
  expect(list[0]!.tabs.length).toBeGreaterThan(0);
  c.close();
});

test("idle panes cost the client nothing", async () => {
  const c = await new RawClient(100, 30).attach();
  await c.until("first screen", (s) => s.includes("[main]"));
  // Wait until frames stop (shell prompt settled), then watch a quiet second.
  let last = -1;
  await waitFor("output to settle", async () => {
    const b = c.bytes;
    await Bun.sleep(200); // a quiet window: no event says "the shell has drawn its last"
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
