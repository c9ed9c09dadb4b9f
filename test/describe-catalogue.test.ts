// The catalogue is the registry: every registry message is described, and every described field
// type, accepted value, range and requirement is enforced by the server (a wrong value is refused
// with invalid_params naming that field, before anything is done).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestServer } from "./harness";
import { MESSAGES } from "../src/messages";
import { validateFields } from "../src/protocol/schema";
import { ENVELOPE_FIELDS } from "../src/protocol/envelope";
import type { FieldDoc, MessageDoc } from "../src/messages/catalogue";
import type { Replies } from "./replies";

let s: TestServer;
let cat: Replies["describe"];
beforeAll(async () => {
  s = await new TestServer().start();
  cat = await s.call({ type: "describe" });
});
afterAll(() => s.stop());

const WRONG: Record<string, unknown> = { integer: "1", number: "1.5", boolean: "yes", string: 5, "string[]": "a", "integer[]": ["a"], pairs: "x", object: 5 };

function placeholder(f: FieldDoc | undefined): unknown {
  if (!f) return null;
  switch (f.type) {
    case "integer":
      return f.min ?? 1;
    case "number":
      return f.min ?? 0.5;
    case "boolean":
      return false;
    case "string":
      return f.accepted?.[0] ?? "x";
    case "string[]":
      return f.accepted ? [f.accepted[0]] : ["x"];
    case "integer[]":
      return [f.min ?? 1];
    case "pairs":
      return [];
    case "object":
      return {};
    default:
      return null;
  }
}

/** A message that passes validation: the example's values, then placeholders for required fields. */
function base(m: MessageDoc): Record<string, unknown> {
  const ex = { ...(m.example ?? {}) };
  for (const k of ENVELOPE_FIELDS) delete ex[k];
  for (const f of m.fields) if (f.required && ex[f.name] === undefined) ex[f.name] = placeholder(f);
  return ex;
}

test("every registry message is described, once, with what the registry says", async () => {
  expect(cat.type).toBe("catalogue");
  expect(cat.protocol).toEqual({ version: 6, min_version: 1, legacy_reply_version: 5 });
  expect(cat.messages.map((m) => m.type)).toEqual(MESSAGES.map((m) => m.type));
  for (const e of MESSAGES) {
    const d = cat.messages.find((m) => m.type === e.type);
    expect({ type: e.type, since: d!.since, request: d!.request, fields: d!.fields.map((f) => f.name) }).toEqual({ type: e.type, since: e.since, request: e.request, fields: Object.keys(e.fields) });
    expect(d!.summary.length).toBeGreaterThan(10);
    for (const f of d!.fields) expect(`${e.type}.${f.name}: ${f.description}`.length).toBeGreaterThan(e.type.length + f.name.length + 5);
    if (e.since >= 6) {
      expect(d!.example).toBeDefined();
      expect(d!.reply === null || typeof d!.reply.type === "string").toBe(true);
    }
  }
  expect(cat.errors.map((e) => e.code)).toEqual(expect.arrayContaining(["invalid_request", "unknown_type", "invalid_params", "version_unsupported", "line_too_long", "workspace_not_found", "tab_not_found", "pane_not_found", "last_pane", "timeout", "busy", "too_many_connections", "internal"]));
});

test("every example is a valid message", () => {
  for (const e of MESSAGES) {
    if (!e.example) continue;
    const r = validateFields(e.fields, e.example, { strict: true, envelope: ENVELOPE_FIELDS });
    expect({ type: e.type, error: "error" in r ? r.error : undefined }).toEqual({ type: e.type, error: undefined });
  }
});

test("describe of one message, and of an unknown one", async () => {
  const one = await s.v6({ type: "describe", message: "wait_for" });
  expect(one.messages.map((m) => m.type)).toEqual(["wait_for"]);
  expect(await s.v6({ type: "describe", message: "wait_fro" })).toMatchObject({ code: "unknown_type", hint: { did_you_mean: "wait_for" } });
});

test("every described field's type, range, accepted values and requirement is enforced at v6", async () => {
  let checked = 0;
  for (const m of cat.messages) {
    const ok = base(m);
    const send = async (fields: Record<string, unknown>) => s.request({ ...fields, v: 6, type: m.type });
    const expectRefused = async (fields: Record<string, unknown>, param: string, what: string) => {
      const r = await send(fields);
      expect({ message: m.type, what, code: r.code, param: r.hint?.param }).toEqual({ message: m.type, what, code: "invalid_params", param });
      checked++;
      return r;
    };
    await expectRefused({ ...ok, zz_not_a_field: 1 }, "zz_not_a_field", "unknown field");
    for (const f of m.fields) {
      if (f.type !== "any") await expectRefused({ ...ok, [f.name]: WRONG[f.type] }, f.name, `wrong type (${f.type})`);
      if (f.required) {
        const { [f.name]: _gone, ...without } = ok;
        await expectRefused(without, f.name, "missing");
      }
      if (f.accepted) {
        const bad = f.type === "string[]" ? ["zz-not-accepted"] : "zz-not-accepted";
        const r = await expectRefused({ ...ok, [f.name]: bad }, f.name, "not accepted");
        expect(r.hint!.accepted).toEqual(f.accepted);
      }
      if (f.min !== undefined) await expectRefused({ ...ok, [f.name]: f.min - 1 }, f.name, "below min");
      if (f.max !== undefined) await expectRefused({ ...ok, [f.name]: f.max + 1 }, f.name, "above max");
    }
  }
  expect(checked).toBeGreaterThan(150);
});

test("every field a required_when names is described, and refused clearly when missing", async () => {
  let checked = 0;
  for (const e of MESSAGES) {
    const d = cat.messages.find((m) => m.type === e.type);
    // The registry's side: each value's needs name fields the message has, so `describe` shows them.
    const named = new Set<string>();
    for (const [by, spec] of Object.entries(e.fields))
      for (const [value, needs] of Object.entries(spec.requires ?? {})) {
        expect({ message: e.type, by, value, accepted: spec.accepted?.includes(value) }).toEqual({ message: e.type, by, value, accepted: true });
        for (const name of needs) {
          expect({ message: e.type, by, value, need: name, described: d!.fields.some((f) => f.name === name) }).toEqual({ message: e.type, by, value, need: name, described: true });
          named.add(name);
        }
      }
    // The catalogue's side: required_when is exactly the inverse of the registry's requires.
    expect(d!.fields.filter((f) => f.required_when).map((f) => f.name).sort()).toEqual([...named].sort());
    for (const f of d!.fields.filter((f) => f.required_when))
      for (const [by, values] of Object.entries(f.required_when as Record<string, string[]>))
        for (const value of values) {
          expect({ message: e.type, field: f.name, by, value, requires: e.fields[by]?.requires?.[value]?.includes(f.name) }).toEqual({ message: e.type, field: f.name, by, value, requires: true });
          // With everything that value needs the message is valid; without this one field it is
          // refused before anything is done, naming the field and why it was needed.
          const full: Record<string, unknown> = { ...base(d!), [by]: value };
          for (const need of e.fields[by]!.requires![value]!) full[need] ??= placeholder(d!.fields.find((g) => g.name === need));
          expect({ message: e.type, by, value, error: (validateFields(e.fields, full) as { error?: string }).error }).toEqual({ message: e.type, by, value, error: undefined });
          const { [f.name]: _gone, ...without } = full;
          const r = await s.request({ ...without, v: 6, type: e.type });
          expect({ message: e.type, field: f.name, by, value, code: r.code, param: r.hint?.param }).toEqual({ message: e.type, field: f.name, by, value, code: "invalid_params", param: f.name });
          expect(r.message).toContain(`${by} ${value} needs \`${f.name}\``);
          checked++;
        }
  }
  // wait_for's conditions alone name 9 (condition, field) pairs.
  expect(checked).toBeGreaterThanOrEqual(9);
});

test("nothing the refused messages asked for was done", async () => {
  // The walk sent shutdown, pane_close, workspace_new … with bad fields: the server is as it was.
  expect(await s.list()).toEqual([{ name: "main", current: true, tabs: [{ name: "bash", panes: [1], active: true }] }]);
});

test("the replies the tests type (test/replies.ts) carry only the fields their registry entry describes", async () => {
  const sent: Record<string, Record<string, unknown>> = {
    hello: {},
    describe: {},
    pane_list: {},
    workspace_list: {},
    pane_read: { pane: 1 },
    pane_info: { pane: 1 },
    session_snapshot: {},
    dashboard: {},
    search: { pattern: "x" },
    approval_list: {},
    agent_queue_list: {},
    layout_export: {},
  };
  const undescribed: string[] = [];
  for (const [type, fields] of Object.entries(sent)) {
    const e = MESSAGES.find((m) => m.type === type)!;
    const r: Record<string, unknown> = await s.request({ v: 6, id: 1, type, ...fields });
    expect({ type, reply: r.type }).toEqual({ type, reply: e.reply ?? "ok" });
    for (const k of Object.keys(r)) if (!["v", "id", "type"].includes(k) && !Object.hasOwn(e.replyFields ?? {}, k)) undescribed.push(`${type}.${k}`);
  }
  expect(undescribed).toEqual([]);
});
