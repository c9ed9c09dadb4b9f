// Panes nobody looks at put their emulator away (src/model/resting-emulator.ts) and get it back, the
// same in every way, when they print, are read, searched, split (resized) or shown. Two real
// servers run the same programs: one puts emulators away after 300 ms, the other never does; every
// read of a pane that rested must be byte for byte what the never-resting server answers.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";

let rests: TestServer;
let never: TestServer;

/** Colours, underline styles, a hyperlink, wide and combining characters, history past the screen,
 * a wrapped line, a scroll region and a title; `alt` then enters the alternate screen (as vim and
 * less do) with mouse reporting, bracketed paste and application cursor keys on. */
const rich = (alt: boolean) =>
  [
    "for i in $(seq 1 160); do printf '\\033[3%dm%d\\033[0m row \\033[4:3m\\033[58;5;%dmcurly\\033[0m \\033]8;;https://example.invalid/%d\\007link\\033]8;;\\007 漢字 e\\314\\201\\n' $((i % 8)) $i $i $i; done",
    "printf 'WRAP%0200dEND\\n' 0",
    "printf '\\033]2;rich title\\007\\033[44mblue\\033[K\\033[0m\\n'",
    ...(alt ? ["printf '\\033[?1049h\\033[H\\033[2J\\033[?1000h\\033[?1006h\\033[?2004h\\033[?1h\\033[3;8r\\033[5;3Hin alt \\033[7mreverse\\033[0m\\033[2;2H'"] : []),
    "echo ready",
  ].join("; ");

async function open(s: TestServer, alt: boolean): Promise<number> {
  const pane = Number((await s.ok(["tab", "new", "--", "sh", "-c", `${rich(alt)}; exec cat`])).trim());
  await s.waitScreen(pane, "ready");
  return pane;
}

const info = (s: TestServer, pane: number) => s.v6({ id: 1, type: "pane_info", pane }) as Promise<{ emulator?: string; cursor: { x: number; y: number }; scrollback: number }>;
const resting = (pane: number) => waitFor(`pane ${pane}'s emulator to be put away`, async () => (await info(rests, pane)).emulator === "resting", 10_000, 50);

/** Everything a reader gets of a pane, styled. */
async function reads(s: TestServer, pane: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const source of ["visible", "recent", "recent-unwrapped"]) out.push(await s.v6({ id: 1, type: "pane_read", pane, source, styled: true }));
  const i = await info(s, pane);
  out.push(i.cursor, i.scrollback);
  return out;
}

const panes: { rests: number; never: number }[] = [];

beforeAll(async () => {
  rests = await new TestServer({ env: { WS_EMULATOR_REST_MS: "300" } }).start();
  never = await new TestServer({ env: { WS_EMULATOR_REST_MS: "0" } }).start();
  for (const alt of [false, true]) panes.push({ rests: await open(rests, alt), never: await open(never, alt) });
}, 60_000);
afterAll(async () => {
  await rests?.stop();
  await never?.stop();
});

test("a pane nobody looks at puts its emulator away; one that never does reads the same", async () => {
  for (const p of panes) {
    await resting(p.rests);
    expect((await info(never, p.never)).emulator).toBe("live");
    // A pane_info answers from what the pane left: it does not bring the emulator back.
    expect((await info(rests, p.rests)).emulator).toBe("resting");
  }
  for (const p of panes) expect(await reads(rests, p.rests)).toEqual(await reads(never, p.never));
});

test("a rested pane that prints goes on exactly as one that never rested (the normal and the alternate screen)", async () => {
  for (const p of panes) {
    await resting(p.rests);
    for (const [s, pane] of [[rests, p.rests], [never, p.never]] as const) {
      await s.v6({ id: 1, type: "pane_send", pane, text: "typed after rest", enter: true });
      await s.waitScreen(pane, /typed after rest[^]*typed after rest/);
    }
    expect(await reads(rests, p.rests)).toEqual(await reads(never, p.never));
  }
});

test("search and a resize (a split) find and reflow a rested pane as one that never rested", async () => {
  for (const p of panes) await resting(p.rests);
  const search = async (s: TestServer, pane: number) => s.v6({ id: 1, type: "search", pattern: "row", max: 500, panes: [pane] }) as Promise<{ matches: { line: number; text: string }[] }>;
  const [a, b] = [await search(rests, panes[0]!.rests), await search(never, panes[0]!.never)];
  expect(a.matches.length).toBeGreaterThan(100);
  expect(a.matches).toEqual(b.matches);
  for (const p of panes) await resting(p.rests);
  for (const p of panes)
    for (const [s, pane] of [[rests, p.rests], [never, p.never]] as const) await s.v6({ id: 1, type: "split", pane, right: true, cwd: "/", command: ["cat"], focus: false });
  for (const p of panes) expect(await reads(rests, p.rests)).toEqual(await reads(never, p.never));
});

test("a client showing a rested pane brings its emulator back, draws its screen, keeps it while shown, and lets it rest once it shows another tab", async () => {
  const p = panes[1]!;
  await resting(p.rests);
  await rests.v6({ id: 1, type: "pane_focus", pane: p.rests });
  const c = await RawAttach.open(rests.sock, { v: 1, type: "attach", cols: 100, rows: 30 });
  try {
    await waitFor("the client to draw the rested pane", () => c.output.includes("reverse"), 10_000, 20).catch((e) => {
      throw new Error(`${e.message}: ${JSON.stringify(c.output.slice(-2000))} ${c.refusal}`);
    });
    // Shown: not put away again while the client looks, however long the pane stays quiet.
    const t0 = Date.now();
    await waitFor("three rest delays", () => Date.now() - t0 > 1000, 5000, 100);
    expect((await info(rests, p.rests)).emulator).toBe("live");
    // The client shows another tab: this pane is on nobody's screen, and rests again.
    c.output = "";
    await rests.v6({ id: 1, type: "pane_focus", pane: panes[0]!.rests });
    await waitFor("the other tab drawn", () => c.output.includes("curly"), 10_000, 20);
    await resting(p.rests);
  } finally {
    c.close();
  }
  expect(await reads(rests, p.rests)).toEqual(await reads(never, p.never));
}, 30_000);
