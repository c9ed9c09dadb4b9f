// docs/limits.md's table against the constants it states: a limit changed in code and not in the
// docs (or the other way) fails here, as the README's CLI table is checked in cli-registry.test.ts.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_MATCHES } from "../src/messages/search";
import { MAX_BODY, MAX_TITLE } from "../src/messages/notify";
import { MAX_KEYS } from "../src/messages/pane_send_keys";
import { MAX_PENDING, MAX_SUMMARY } from "../src/features/approvals/service";
import { MAX_ANSWER_CHARS as MAX_TYPED_ANSWER_CHARS, MAX_CHOICE_CHARS, MAX_CHOICES, MAX_QUESTION_CHARS, MAX_QUESTIONS } from "../src/features/approvals/questions";
import { MAX_ASK_TIMEOUT_MS } from "../src/messages/ask";
import { MAX_WAIT_MS } from "../src/cli/approval-hook";
import { MAX_PROMPT_CHARS, MAX_QUEUED, MAX_QUEUED_PER_AGENT } from "../src/features/agents/queue";
import { MAX_ANSWER_CHARS, TRANSCRIPT_TAIL_BYTES } from "../src/features/agents/answer";
import { MAX_ENV_BYTES, MAX_ENV_VARS, MAX_LAYOUT_DEPTH, MAX_PANES, MAX_PANES_PER_REQUEST, SLOW_CLIENT_MS } from "../src/model/limits";
import { NAME_MAX_LENGTH } from "../src/protocol/names";
import { SCROLLBACK_DEFAULT, SCROLLBACK_MAX } from "../src/model/pane";
import { MAX_RUN_OUTPUT } from "../src/model/shell-marks";
import { MAX_LINE } from "../src/protocol/version";
import { MAX_CONNECTIONS, RESERVED_SLOTS } from "../src/server/listener";
import { FAULT_SAVE_EVERY_MS, MAX_FAULT_LOGS } from "../src/server/daemon";
import { ABORT_GRACE_MS, REQUEST_TIMEOUT_MS } from "../src/server/dispatch";
import { REPLY_TIMEOUT_MS } from "../src/client/request";
import { LOG_MAX_BYTES } from "../src/log";
import { SYNC_HOLD_MS } from "../src/ui/frame-scheduler";
import { MAX_HOOK_INPUT } from "../src/cli/report";
import { MAX_SETTINGS_BYTES } from "../src/features/agents/hooks-install";
import { BYTES_PER_TURN, MAX_NVIM_MESSAGE, MAX_UNASKED_BYTES, MAX_UNASKED_MESSAGES, MESSAGES_PER_TURN } from "../src/features/nvim/rpc";
import { HOSTS_FILE_MAX } from "../src/cli/remote-dashboard";
import { INFO_MAX } from "../src/safe-file";
import { MAX_REPEATED_KEYS, MAX_SENT_BYTES } from "../src/tmux-shim/cmd/panes";
import { MAX_BINARY_BYTES, MAX_CHECKSUMS_BYTES, MAX_MANIFEST_BYTES, MAX_SIGNATURE_BYTES } from "../src/cli/release-files";
import { BUFFER_LIMIT, BUFFER_MAX_BYTES, BUFFERS_TOTAL_BYTES, NAMED_BUFFER_LIMIT, SHIM_NAME_MAX, SHIM_OPTION_VALUE_MAX, SHIM_OPTIONS_MAX, UPLOAD_IDLE_MS, UPLOADS_MAX } from "../src/features/shim-store";
import { SHIM_READ_PIECE } from "../src/messages/shim_buffer_get";
import { MAX_RECORD_BYTES, MAX_RECORDS } from "../src/features/workstreams/records";
import { AGENTS_TOML_MAX, MAX_KEYS as MAX_ANSWER_KEYS, MAX_PATTERNS, MAX_PROFILES, MAX_PROMPT_LINES } from "../src/features/agents/screen-profiles";
import { LOOK_EVERY_MS, MAX_TEXT as MAX_SCREEN_TEXT } from "../src/features/agents/screen-watch";
import { MAX_PATTERN_LENGTH } from "../src/patterns/user-pattern";

const doc = readFileSync(join(import.meta.dir, "../docs/limits.md"), "utf8");
const table = doc.slice(doc.indexOf("## Every limit at a glance"), doc.indexOf("\n## ", doc.indexOf("## Every limit at a glance") + 1));
/** The table's rows: the "What" cell → the "Limit" cell. */
const rows = new Map(
  table
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| What"))
    .map((l) => l.split(" | "))
    .map((c) => [c[0]!.slice(2), c[1]!] as const),
);

const KiB = 1024;
const MiB = 1024 * 1024;
/** The ways the docs write a number: 10,000 or 4096 (plain for powers of two), or in KiB/MiB, or hours. */
const forms = (n: number, unit?: "bytes" | "ms"): string[] => {
  if (unit === "bytes") return n % MiB === 0 ? [`${n / MiB} MiB`] : [`${n / KiB} KiB`];
  if (unit === "ms") return n % 3_600_000 === 0 ? [`${n / 3_600_000} h`] : [`${n / 1000} s`];
  return [n.toLocaleString("en-US"), String(n)];
};
/** Whether `cell` states `n` as a whole number (not part of a bigger one). */
const states = (cell: string, n: number, unit?: "bytes" | "ms") =>
  forms(n, unit).some((f) => new RegExp(`(?<![\\d.]|\\d,)${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\d]|[,.]\\d)`).test(cell));

// The row (by the start of its "What" cell) and the constants its "Limit" cell states.
const CHECKS: [row: string, values: [number, ("bytes" | "ms")?][]][] = [
  ["Names", [[NAME_MAX_LENGTH]]],
  ["Approvals waiting", [[MAX_PENDING], [MAX_SUMMARY], [MAX_WAIT_MS, "ms"]]],
  ["Questions waiting", [[MAX_QUESTIONS], [MAX_QUESTION_CHARS], [MAX_CHOICES], [MAX_CHOICE_CHARS], [MAX_TYPED_ANSWER_CHARS], [MAX_ASK_TIMEOUT_MS, "ms"]]],
  ["Agents told by their screen", [[MAX_PROFILES], [AGENTS_TOML_MAX, "bytes"], [MAX_PATTERNS], [MAX_PATTERN_LENGTH], [MAX_PROMPT_LINES], [MAX_ANSWER_KEYS], [LOOK_EVERY_MS], [MAX_SCREEN_TEXT, "bytes"]]],
  ["Prompt queue", [[MAX_QUEUED_PER_AGENT], [MAX_QUEUED], [MAX_PROMPT_CHARS], [MAX_ANSWER_CHARS], [TRANSCRIPT_TAIL_BYTES, "bytes"]]],
  ["Panes one request starts", [[MAX_PANES_PER_REQUEST]]],
  ["Panes one server runs", [[MAX_PANES]]],
  ["Layout tree nesting", [[MAX_LAYOUT_DEPTH]]],
  ["A pane's `env`", [[MAX_ENV_VARS], [MAX_ENV_BYTES, "bytes"]]],
  ["History a pane keeps", [[SCROLLBACK_DEFAULT], [SCROLLBACK_MAX]]],
  ["`pane_send_keys` keys", [[MAX_KEYS]]],
  ["`notify` text", [[MAX_TITLE], [MAX_BODY]]],
  ["`search`", [[MAX_MATCHES]]],
  ["`run` output", [[MAX_RUN_OUTPUT, "bytes"], [SCROLLBACK_DEFAULT]]],
  ["Connections", [[MAX_CONNECTIONS], [RESERVED_SLOTS]]],
  ["Line, request budget", [[MAX_LINE, "bytes"]]],
  ["Errors nothing caught", [[MAX_FAULT_LOGS], [FAULT_SAVE_EVERY_MS, "ms"]]],
  ["A request's answer, in the server", [[REQUEST_TIMEOUT_MS, "ms"], [ABORT_GRACE_MS, "ms"]]],
  ["A CLI request's answer", [[REPLY_TIMEOUT_MS, "ms"]]],
  ["The server's log", [[LOG_MAX_BYTES, "bytes"]]],
  ["An attached client (its socket", [[SLOW_CLIENT_MS, "ms"]]],
  ["A pane in synchronized output", [[SYNC_HOLD_MS]]],
  ["Hook input on stdin", [[MAX_HOOK_INPUT, "bytes"]]],
  ["`open` / `open_file`", [[MAX_NVIM_MESSAGE, "bytes"], [MAX_UNASKED_MESSAGES], [MAX_UNASKED_BYTES, "bytes"], [MESSAGES_PER_TURN], [BYTES_PER_TURN, "bytes"]]],
  ["The CLI's own reads", [[MAX_LINE, "bytes"], [HOSTS_FILE_MAX, "bytes"], [INFO_MAX, "bytes"], [MAX_SETTINGS_BYTES, "bytes"]]],
  ["tmux shim `send-keys`", [[MAX_REPEATED_KEYS], [MAX_SENT_BYTES, "bytes"]]],
  ["Release downloads", [[MAX_CHECKSUMS_BYTES, "bytes"], [MAX_SIGNATURE_BYTES, "bytes"], [MAX_MANIFEST_BYTES, "bytes"], [MAX_BINARY_BYTES, "bytes"]]],
  ["tmux shim buffers and options", [[BUFFER_LIMIT], [NAMED_BUFFER_LIMIT], [BUFFER_MAX_BYTES, "bytes"], [BUFFERS_TOTAL_BYTES, "bytes"], [UPLOADS_MAX], [UPLOAD_IDLE_MS, "ms"], [SHIM_READ_PIECE, "bytes"], [SHIM_OPTIONS_MAX], [SHIM_OPTION_VALUE_MAX], [SHIM_NAME_MAX]]],
  ["Workstreams (", [[MAX_RECORDS], [MAX_RECORD_BYTES, "bytes"]]],
];

describe("docs/limits.md states the limits the code has", () => {
  test("the table was found and every checked row is in it", () => {
    expect(rows.size).toBeGreaterThan(20);
    for (const [row] of CHECKS) expect([...rows.keys()].some((k) => k.startsWith(row)), `no row "${row}"`).toBe(true);
  });
  for (const [row, values] of CHECKS)
    test(row, () => {
      const cell = [...rows].find(([k]) => k.startsWith(row))![1];
      for (const [n, unit] of values) expect(states(cell, n, unit), `"${row}" should state ${forms(n, unit)[0]}: ${cell}`).toBe(true);
    });
  test("the check fails on a wrong number", () => {
    expect(states("its last 1 MiB, history (2,000 lines)", 10_000)).toBe(false);
    expect(states("2,000 lines", 2_000)).toBe(true);
    expect(states("12,000 lines", 2_000)).toBe(false);
    expect(states("64 KiB", 64 * KiB, "bytes")).toBe(true);
    expect(states("640 KiB", 64 * KiB, "bytes")).toBe(false);
    expect(states("0–100,000, in", 100_000)).toBe(true);
    expect(states("100,0000", 100_000)).toBe(false);
  });
});
