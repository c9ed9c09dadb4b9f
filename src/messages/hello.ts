import { BUILD, WS_VERSION } from "../build-info";
import { LEGACY_REPLY_VERSION, MIN_VERSION, VERSION } from "../protocol/version";
import { defineMessage } from "./types";

export default defineMessage({
  type: "hello",
  since: 6,
  grant: "report",
  scope: "any",
  request: true,
  reply: "hello",
  summary: "Who this server is: the protocol range it speaks, its version, build, pid and boot id. Optional: every other message works without it.",
  fields: {
    client: { type: "string", description: "Your program's name and version, for the server's log" },
  },
  replyFields: {
    protocol: { type: "integer", description: "The newest protocol version the server speaks (6)" },
    min_protocol: { type: "integer", description: "The oldest it accepts (1)" },
    legacy_reply_version: { type: "integer", description: "The `v` of JSON replies to lines sent at v1–v5 (5)" },
    server_version: { type: "string", description: "The ws release" },
    build: { type: "string", description: "The build id (a hash of the sources); differs between builds of one release" },
    pid: { type: "integer", description: "The server's process id" },
    boot_id: { type: "string", description: "A random id for this server start; `subscribe` resumes only within one boot" },
    started_at: { type: "integer", description: "When the server started, ms since the epoch" },
    seq: { type: "integer", description: "The last event's sequence number" },
  },
  example: { v: 6, id: 1, type: "hello", client: "my-script 1.0" },
  handle(_p, { services }) {
    const c = services.control;
    return {
      type: "hello",
      protocol: VERSION,
      min_protocol: MIN_VERSION,
      legacy_reply_version: LEGACY_REPLY_VERSION,
      server_version: WS_VERSION,
      build: BUILD,
      pid: process.pid,
      boot_id: c.bootId,
      started_at: c.startedAt,
      seq: c.events.seq,
    };
  },
});
