// The cursor's own line reflows through a narrower size and back, as in tmux: an 84-character
// progress line and a prompt read without readline (the tty echoes what is typed) keep their
// text through a split (120 → ~60 → 120 columns), and what the program writes next lands after
// them. Real daemon, real shells in real PTYs, sized by a real attach client.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { useServer, waitFor } from "./harness";
import { RawAttach } from "./raw-attach";

const s = useServer();
let client: RawAttach;

beforeAll(async () => {
  client = await RawAttach.open(s.sock, { v: 1, type: "attach", cols: 120, rows: 30 });
  await client.firstFrame();
});
afterAll(() => client.close());

const cols = async (pane: number) => ((await s.request({ v: 6, type: "pane_info", pane })) as unknown as { cols: number }).cols;

/** The line holding `start` on `pane`'s screen. */
async function lineWith(pane: number, start: string): Promise<string> {
  return (await s.screen(pane)).split("\n").find((l) => l.startsWith(start)) ?? "";
}

/** Split `pane` (it narrows to about half), then close the new pane (it widens back). */
async function throughASplit(pane: number): Promise<void> {
  const wide = await cols(pane);
  const r = (await s.request({ v: 1, type: "split", pane, right: true, cwd: s.root, command: ["sh", "-c", "exec cat"], focus: false })) as unknown as { pane: number };
  await waitFor("the pane narrowed", async () => (await cols(pane)) < 70);
  await s.request({ v: 2, type: "pane_close", pane: r.pane });
  await waitFor("the pane widened again", async () => (await cols(pane)) === wide);
}

async function tab(script: string): Promise<number> {
  return Number((await s.ok(["tab", "new", "--focus", "--", "sh", "-c", script])).trim());
}

test("a progress line keeps its 84 characters, and the next write lands after them", async () => {
  const bar = `[${"#".repeat(60)}${".".repeat(17)}] 80% `; // 84 characters, no newline
  expect(bar.length).toBe(84);
  const pane = await tab(`stty -echo; printf '%s' '${bar}'; read x; printf 'DONE'; exec cat`);
  await s.waitScreen(pane, "80%");
  expect(await cols(pane)).toBeGreaterThanOrEqual(100);
  await throughASplit(pane);
  expect((await lineWith(pane, "[###")).trimEnd()).toBe(bar.trimEnd());
  await s.request({ v: 2, type: "pane_send", pane, text: "", enter: true });
  await s.waitScreen(pane, "DONE");
  expect(await lineWith(pane, "[###")).toBe(`${bar}DONE`);
}, 30000);

test("a prompt without readline keeps its text; what is typed after the split follows it", async () => {
  const prompt = `${"Enter the name of the release branch to cut from main, then press Enter".padEnd(82, ".")}: `;
  expect(prompt.length).toBe(84);
  const pane = await tab(`printf '%s' '${prompt}'; read x; echo "got:$x"; exec cat`);
  await s.waitScreen(pane, "....: ");
  await throughASplit(pane);
  expect((await lineWith(pane, "Enter the name")).trimEnd()).toBe(prompt.trimEnd());
  await s.request({ v: 2, type: "pane_send", pane, text: "v2.1", enter: true });
  await s.waitScreen(pane, "got:v2.1");
  expect(await lineWith(pane, "Enter the name")).toBe(`${prompt}v2.1`);
}, 30000);
