// Pins the v1–v5 protocol byte for byte: every line a v1–v5 client sends gets exactly the reply it
// got before protocol v6 existed (JSON replies at "v":5, plain `ok` / `error: …` lines, unknown
// fields ignored). Written before v6 was added; the only thing allowed to move is the version range
// in the version error, which names the range this build speaks.
import { expect, test } from "bun:test";
import { useServer } from "./harness";
import { MIN_VERSION, VERSION } from "../src/protocol/version";

const s = useServer();

const range = `${MIN_VERSION}..=${VERSION}`;

// [line sent, exact reply line] in order, on a fresh server (pane and tab numbering depends on it).
const CASES: [string, string][] = [
  ['{"v":2,"type":"workspace_list"}', '{"v":5,"type":"workspaces","workspaces":[{"name":"main","current":true,"tabs":[{"name":"bash","panes":[1],"active":true}]}]}'],
  ['{"v":5,"type":"dashboard"}', '{"v":5,"type":"dashboard","agents":[],"workstreams":[],"ports":[]}'],
  ['{"v":1,"type":"split","pane":1,"right":false,"cwd":"/tmp","command":["cat"],"focus":false,"bogus":1}', '{"v":5,"type":"pane","pane":2}'],
  ['{"v":2,"type":"workspace_new","name":"Games"}', '{"v":5,"type":"ok"}'],
  ['{"v":2,"type":"workspace_new","name":"games"}', '{"v":5,"type":"error","message":"workspace \\"Games\\" exists"}'],
  ['{"v":2,"type":"workspace_new","name":"games","exists_ok":true,"unknown_field":[1,2]}', '{"v":5,"type":"ok"}'],
  ['{"v":2,"type":"tab_new","workspace":"Gmaes","name":"T","cwd":"/tmp","command":[]}', '{"v":5,"type":"error","message":"no workspace \\"Gmaes\\" (have: main, Games)"}'],
  ['{"v":2,"type":"tab_new","workspace":"Games","name":"T","cwd":"/tmp","command":["cat"]}', '{"v":5,"type":"pane","pane":4}'],
  ['{"v":2,"type":"pane_send","pane":99,"text":"x"}', '{"v":5,"type":"error","message":"no pane 99 (have: 1, 2, 3, 4)"}'],
  ['{"v":2,"type":"pane_send","pane":2,"text":"hi","enter":true}', '{"v":5,"type":"ok"}'],
  ['{"v":2,"type":"pane_send","pane":"2","text":"hi"}', "error: invalid message: invalid type for `pane`: string, expected an integer"],
  ['{"v":2,"type":"pane_send","text":"hi"}', "error: invalid message: missing field `pane`"],
  ['{"v":2,"type":"tab_close","workspace":"Games","tab":"Nope"}', '{"v":5,"type":"error","message":"no tab \\"Nope\\" in workspace \\"Games\\" (have: bash, T)"}'],
  ['{"v":2,"type":"nope"}', 'error: invalid message: unknown type "nope"'],
  ['{"v":9,"type":"split"}', `error: protocol version 9 not supported (this ws speaks ${range})`],
  ['{"v":0,"type":"split"}', `error: protocol version 0 not supported (this ws speaks ${range})`],
  ["not json", 'error: invalid message: JSON Parse error: Unexpected identifier "not"'],
  ["[1]", "error: invalid message: expected a JSON object"],
  ['{"type":"split"}', "error: invalid message: missing field `v`"],
  ['{"v":"2","type":"split"}', "error: invalid message: `v` must be an integer"],
  ['{"v":2}', "error: invalid message: missing field `type`"],
  ['{"v":2,"type":7}', "error: invalid message: `type` must be a string"],
  ['{"v":1,"type":"project_renamed","from":"a","to":"b"}', "ok"],
  ['{"v":2,"type":"project_renamed","from":"a"}', "error: invalid message: missing field `to`"],
  ['{"v":1,"type":"new_workstream","template":"t","name":"n","later_field":true}', "ok"],
  // open_review was a stub answering "not supported" at first; now it lays out the review
  // template, and a worktree that isn't there is the error. (Not named "n": the new_workstream "n"
  // above is answered before it acts, and may still be under way.)
  ['{"v":3,"type":"open_review","workspace":"w","title":"t","name":"r","template":"review","repo":"/r","dir":"/d"}', '{"v":5,"type":"error","message":"can\'t start in \\"/d\\": no such directory"}'],
  ['{"v":4,"type":"agent_send","pane":1,"text":"x"}', '{"v":5,"type":"error","message":"no agent in the tab of pane 1 (an agent is a pane whose hooks report to ws; see ws hooks install)"}'],
  ['{"v":5,"type":"workspace_focus","name":"nah"}', '{"v":5,"type":"error","message":"no workspace \\"nah\\" (have: main, Games)"}'],
  ['{"v":5,"type":"pane_focus","pane":1}', '{"v":5,"type":"ok"}'],
  ['{"v":2,"type":"workstream_done","name":"x"}', '{"v":5,"type":"error","message":"no workstream \\"x\\" (have: none)"}'],
  ['{"v":1,"type":"split","pane":1,"right":"yes","cwd":"/tmp","command":[]}', "error: invalid message: invalid type for `right`: string, expected a boolean"],
  ['{"v":1,"type":"split","pane":1,"cwd":"/tmp","command":[],"size":0}', '{"v":5,"type":"error","message":"size must be at least 1, got 0"}'],
  ['{"v":2,"type":"workspace_close","name":"Games"}', '{"v":5,"type":"ok"}'],
  ['{"v":1,"type":"open_tab","cwd":"/tmp","command":["cat"],"name":"O"}', "ok"],
];

test("v1–v5 lines get exactly the replies they always got", async () => {
  for (const [line, want] of CASES) {
    const got = await s.rawLine(line + "\n");
    expect({ line, got }).toEqual({ line, got: want });
  }
});

test("several v1–v5 lines on one connection are answered in order, then the connection closes", async () => {
  const all = await s.rawAll('{"v":2,"type":"pane_send","pane":2,"text":""}\n{"v":2,"type":"pane_send","pane":77,"text":""}\n{"v":1,"type":"report","pane":1,"event":"Nothing"}\n');
  expect(all).toBe('{"v":5,"type":"ok"}\n{"v":5,"type":"error","message":"no pane 77 (have: 1, 2, 5)"}\nok\n');
});

test("a last line without its newline is answered once the client closes its write side", async () => {
  const c = await s.connect();
  c.write('{"v":2,"type":"pane_send","pane":2,"text":""}');
  c.shutdown();
  const got = await c.rest(1500); // sooner than the 2 s idle close: the half-close is what ends it
  expect(got).toBe('{"v":5,"type":"ok"}\n');
});
