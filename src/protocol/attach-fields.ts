// The attach message's fields (messages/attach.ts is its registry entry). They live here, below
// the features, so the UI's attach service takes the parameters these fields validate, their type
// inferred from them (AttachParams), not written a second time.
import { typed, type Fields, type Static } from "./schema";
import { U16_MAX } from "./events";

/** A tab to open on attach (see open_tab). */
export interface AttachOpen {
  cwd: string;
  command?: string[];
  name?: string;
  project?: string;
}

export const ATTACH_FIELDS = {
  // u16, as crossterm reports sizes; the server then clamps to its screen limits (docs/attach.md).
  cols: { type: "integer", required: true, min: 0, max: U16_MAX, description: "The client terminal's width" },
  rows: { type: "integer", required: true, min: 0, max: U16_MAX, description: "The client terminal's height" },
  build: { type: "string", description: "The client binary's build id" },
  term: { type: "string", description: "The client terminal's $TERM, for tools that ask (tmux's client_termtype); one that is not printable ASCII, or over 128 characters, is ignored. Added in v6: older servers ignore it" },
  tty: {
    type: "string",
    description:
      "The client terminal's device (its stdin and stdout, e.g. /dev/pts/3). A server that can open it as a terminal of its own user reads the keys from it and writes the screen to it itself, and says so with a DIRECT frame (kind 3) before any other: the client then neither reads nor writes its terminal until EXIT, and sends only Resize events. Otherwise the stream is as without it. Added in v6: older servers ignore it",
  },
  tty_id: {
    type: "string",
    description:
      "The terminal `tty` names, as the client sees it: `DEV:RDEV` from fstat of its stdin (the device of the filesystem the node is on, and the terminal's own device number). The server drives the terminal only if its own open of `tty` matches, so a server in another mount namespace never takes a different terminal of the same name. Added in v6: older servers ignore it",
  },
  keys: {
    type: "string",
    description:
      'Only "ask": the client turned no keyboard protocol on in its terminal. A server that drives the terminal (`tty`) then asks it (the kitty keyboard query, then DA1), turns on kitty keys or modifyOtherKeys 2 by the answer, says so in its DIRECT frame\'s payload (`{"keys":"ask"}`) and names what it turned on in a KEYS frame (kind 4), which the client undoes on detach; a DIRECT frame without it means the client sets its keys up itself. Added in v6: older servers ignore it',
  },
  share: {
    type: "boolean",
    description:
      "v6: attach beside the clients already attached (tmux's attach), sharing the session's focus and layout; each client has its own prompt, overlays and copy mode, and the session takes the size of the latest active client (tmux's `window-size latest`). Without it, or at v1–v5, the attach replaces every attached client (they get EXIT `replaced`), as `ws attach -d` and tmux's `attach -d` do",
  },
  open: typed<AttachOpen>()({
    type: "object",
    description: "A tab to open on attach (see open_tab; an unknown `project` refuses the attach)",
    check: (v) => {
      const o = v as Record<string, unknown>;
      if (typeof o.cwd !== "string") return "invalid type for `open.cwd`: expected a string";
      if (o.command !== undefined && !(Array.isArray(o.command) && o.command.every((x) => typeof x === "string")))
        return "invalid type for `open.command`: expected an array of strings";
      for (const k of ["name", "project"] as const)
        if (o[k] !== undefined && typeof o[k] !== "string") return `invalid type for \`open.${k}\`: expected a string`;
      return undefined;
    },
  }),
} as const satisfies Fields;

/** The attach message's parameters, as validation lets them through. */
export type AttachParams = Static<typeof ATTACH_FIELDS>;
