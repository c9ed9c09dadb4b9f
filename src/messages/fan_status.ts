// fan_status: how each candidate of a fan is doing (ws fan status NAME).
import type { FanRow } from "../features/workstreams/fan";
import { defineMessage, replyTyped } from "./types";
import { fansOf } from "./fan-shared";

export default defineMessage({
  type: "fan_status",
  since: 6,
  grant: "control",
  request: true,
  longRunning: true,
  reply: "fan_status",
  summary:
    "Each candidate of a fan: its agent's status, whether the prompt was typed, files changed and lines added and removed since the fan's base commit (untracked files included, ignored not), and the template's check (run in its worktree each time its agent finishes a turn): none, waiting, running, passed or failed, with its exit code and the end of its output.",
  fields: {
    name: { type: "string", name: true, required: true, description: "The fan, or one of its candidates' workstreams (ws fan: the workstream this runs in when not given)" },
  },
  replyFields: {
    fan: { type: "string", description: "The fan" },
    template: { type: "string", description: "Its template" },
    base: { type: "string", description: "The commit the candidates start from" },
    prompt: { type: "string", description: "The prompt" },
    candidates: replyTyped<FanRow[]>()({
      type: "object[]",
      description: "Each {k, workstream, branch, open, pane, status, prompted, turns, files, added, removed, check, exit_code, check_output}",
    }),
  },
  errors: ["not_a_workstream", "unsupported"],
  example: { v: 6, type: "fan_status", name: "login" },
  cli: { path: "fan status", summary: "Each candidate of a fan: agent status, files and lines changed, the check's result", args: ["name?"], run: "checkpoint", view: "fanStatus" },
  async handle(p, { services }) {
    const { fan, rows } = await fansOf(services).status(p.name);
    return { type: "fan_status", fan: fan.name, template: fan.template, base: fan.base, prompt: fan.prompt, candidates: rows };
  },
});
