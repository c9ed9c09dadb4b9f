import { defineMessage } from "./types";
import { WsError } from "../protocol/errors";

export default defineMessage<{ pane: number; text: string }>({
  type: "agent_send",
  since: 4,
  request: true,
  reply: "pane",
  summary: "Type text into the agent in the tab holding pane, as a paste, then press Enter.",
  fields: {
    pane: { type: "integer", required: true, description: "A pane in the tab (usually the caller's own, `$WS_PANE_ID`)" },
    text: { type: "string", required: true, description: "What to type" },
  },
  example: { v: 4, type: "agent_send", pane: 7, text: "Address these unresolved review comments. …" },
  cli: { path: "agent send", args: ["text"], defaults: { pane: "$WS_PANE_ID" }, view: "agentSent" },
  handle({ pane, text }, { session, services }) {
    session.pane(pane); // no such pane: the usual pane_not_found error
    const target = services.get("agents")?.agentPaneFor(pane);
    if (target === undefined) {
      throw new WsError(`no agent in the tab of pane ${pane} (an agent is a pane whose hooks report to ws; see ws hooks install)`, "no_agent", {
        param: "pane",
        command: "ws hooks install claude",
      });
    }
    const p = session.pane(target);
    p.paste(text);
    p.write("\r");
    return { type: "pane", pane: target };
  },
});
