// ws ask end to end: a real shell in a real pane (held to the `report` grant) runs `ws ask`, the
// question shows in the inbox as safe text, the test answers as the person (ws answer, from
// outside ws), and the pane's program gets the answer on stdout. A timeout exits 124 with a
// message on stderr; a question without choices takes any line; a pane can't answer; a question
// whose asker goes leaves the inbox.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Conn, standInAgentServer, type TestServer, waitFor } from "./harness";
import { attachTerminal, openDashboard } from "./outer-terminal";

interface QuestionRow {
  id: number;
  pane?: number;
  question: string;
  choices: string[];
  waited_ms: number;
  timeout_ms?: number;
}

let s: TestServer;
let ws: string;
let pane: number;

beforeAll(async () => {
  ({ s } = await standInAgentServer());
  ws = s.env.STANDIN_WS!;
  pane = (await s.request({ v: 2, type: "tab_new", name: "asker", cwd: s.root })).pane as number;
  // The lowest grant: an agent's hook, or a boxed agent, can ask all the same.
  await s.ok(["pane", "grant", String(pane), "report"]);
}, 60_000);
afterAll(() => s.stop());

const questions = async () => (JSON.parse(await s.ok(["--json", "inbox"])).questions ?? []) as QuestionRow[];
const waitQuestions = async (n: number) => {
  let rows: QuestionRow[] = [];
  await waitFor(`${n} question(s) in the inbox`, async () => (rows = await questions()).length === n, 20_000);
  return rows;
};
const type = (text: string) => s.request({ v: 2, type: "pane_send", pane, text, enter: true });

test("a pane asks with choices; the inbox shows it as safe text; the person answers by number; the pane's program prints the answer", async () => {
  // An escape in the question (clear the screen) and a comma inside a choice.
  await type(`clear; A=$(${ws} ask "$(printf 'Deploy \\033[2J\\033]0;pwned\\007to staging?')" --choice yes --choice "no, wait"); echo "rc=$? got=[$A]"`);
  const [q] = await waitQuestions(1);
  // Its escapes shown as caret text (safeText), never sent as escapes.
  expect(q).toMatchObject({ pane, question: "Deploy ^[[2J^[]0;pwned^Gto staging?", choices: ["yes", "no, wait"] });
  expect(q!.timeout_ms).toBeUndefined();
  const shown = await s.ok(["inbox"]);
  expect(shown).toContain(`question ${q!.id}  pane ${pane}`);
  expect(shown).toContain("asks: Deploy ^[[2J^[]0;pwned^Gto staging?  [1: yes, 2: no, wait]");
  expect(shown).not.toContain("\x1b");

  // A program in a pane can't answer it (a person verb), not even the asker's own pane.
  await s.ok(["pane", "grant", String(pane), "control"]);
  const other = (await s.request({ v: 2, type: "tab_new", name: "rogue", cwd: s.root })).pane as number;
  await s.request({ v: 2, type: "pane_send", pane: other, text: `${ws} answer ${q!.id} yes; echo "rc=$?"`, enter: true });
  expect((await s.waitScreen(other, /rc=\d+/, 20_000)).replaceAll("\n", "")).toContain("question_answer is the person's");
  expect((await questions()).map((r) => r.id)).toEqual([q!.id]);
  await s.ok(["pane", "grant", String(pane), "report"]);

  // A wrong answer is refused, naming the choices; the question still waits.
  const wrong = await s.run(["answer", String(q!.id), "maybe"]);
  expect(wrong.code).toBe(2); // a usage error (invalid_params)
  expect(wrong.stderr).toContain("accepted: yes, no, wait");
  expect((await s.ok(["answer", String(q!.id), "2"])).trim()).toBe(`answered ${q!.id} (pane ${pane}): no, wait`);
  await s.waitScreen(pane, /rc=0 got=\[no, wait\]/, 20_000);
  expect(await questions()).toEqual([]);
  expect((await s.run(["answer", String(q!.id), "yes"])).stderr).toContain(`no question ${q!.id} is waiting`);
}, 90_000);

test("without choices the person types any line; with --timeout nobody answers: exit 124, a message on stderr", async () => {
  await type(`clear; A=$(${ws} ask "Which branch name?"); echo "rc=$? got=[$A]"`);
  const [q] = await waitQuestions(1);
  expect(q).toMatchObject({ question: "Which branch name?", choices: [] });
  expect(await s.ok(["inbox"])).toContain("[any answer]");
  await s.ok(["answer", String(q!.id), "fix/login timeout"]);
  await s.waitScreen(pane, /rc=0 got=\[fix\/login timeout\]/, 20_000);

  const err = `${s.root}/ask-err`;
  await type(`clear; ${ws} ask "Still there?" --choice yes --timeout 300 2>${err}; echo "rc=$?"; cat ${err}`);
  const screen = (await s.waitScreen(pane, /rc=\d+[^]*no answer/, 20_000)).replaceAll("\n", "");
  expect(screen).toContain("rc=124");
  expect(screen).toMatch(/no answer to question \d+ in 300 ms/);
  expect(await questions()).toEqual([]);
}, 60_000);

test("a question leaves the inbox when its asker goes (the connection closed), and the asked events name the pane", async () => {
  const sub = await Conn.open(s.sock);
  const asker = await Conn.open(s.sock);
  try {
    sub.send({ v: 6, id: "sub", type: "subscribe", types: ["question_asked", "question_answered"] });
    expect((await sub.nextJson()).type).toBe("subscribed");
    // A script outside ws asks on the main socket: no pane.
    asker.send({ v: 6, id: 1, type: "ask", question: "Ship it?", choice: ["yes", "no"] });
    const [q] = await waitQuestions(1);
    expect(q!.pane).toBeUndefined();
    expect(await s.ok(["inbox"])).toContain(`question ${q!.id}  a script asks: Ship it?`);
    asker.close();
    await waitQuestions(0);
    const asked = await sub.nextJson();
    expect(asked).toMatchObject({ event: "question_asked", id: q!.id, question: "Ship it?", choices: ["yes", "no"] });
    expect(await sub.nextJson()).toMatchObject({ event: "question_answered", id: q!.id, by: "gone" });
  } finally {
    sub.close();
    asker.close();
  }
}, 30_000);

test("on the attached terminal: the status line counts it, the Dashboard lists it under Needs you, 2 picks the second choice; Enter types a free answer", async () => {
  const c = await attachTerminal(s.sock, 140, 30);
  try {
    await waitFor("the first frame", async () => (await c.screen())[0]!.includes("1:"));
    await type(`clear; A=$(${ws} ask "Merge now?" --choice yes --choice no); echo "rc=$? got=[$A]"`);
    await waitQuestions(1);
    await waitFor("the status line count", async () => (await c.screen()).at(-1)!.includes("? 1 needs you"), 20_000);
    const dash = await openDashboard(c);
    const at = dash.findIndex((l) => l.includes("Needs you"));
    expect(dash[at + 1]).toMatch(new RegExp(`asker \\(pane ${pane}\\) asks: Merge now\\?\\s+\\[1 yes  2 no\\]`));
    c.key("2");
    await s.waitScreen(pane, /rc=0 got=\[no\]/, 20_000);
    await waitFor("the count to go", async () => !(await c.screen()).at(-1)!.includes("need"), 20_000);

    await type(`clear; A=$(${ws} ask "Commit message?"); echo "rc=$? got=[$A]"`);
    await waitQuestions(1);
    await openDashboard(c);
    c.key("Enter");
    await waitFor("the answer prompt", async () => (await c.screen()).at(-1)!.includes("answer question"), 20_000);
    for (const ch of "fix the login") c.key(ch);
    c.key("Enter");
    await s.waitScreen(pane, /rc=0 got=\[fix the login\]/, 20_000);
  } finally {
    c.close();
  }
}, 90_000);

test("bad questions are refused before anything waits", async () => {
  expect((await s.v6({ type: "ask", question: "  " })).code).toBe("invalid_params");
  expect((await s.v6({ type: "ask", question: "pick", choice: ["a", "a"] })).code).toBe("invalid_params");
  expect((await s.v6({ type: "ask", question: "pick", choice: Array.from({ length: 10 }, (_, i) => `c${i}`) })).code).toBe("invalid_params");
  expect(await questions()).toEqual([]);
}, 30_000);
