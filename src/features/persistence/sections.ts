// The features' parts of a saved pane (and of the save's body), each declared by its feature (type, check, limits), under
// the key it is saved as. The save's format and its checks take them from here.
import { AGENT_SECTION, PROMPTS_SECTION } from "../agents/saved";
import { GRANTS_SECTION } from "../grants/saved";
import { WORKSTREAMS_SECTION } from "../workstreams/saved";
import type { SectionValue } from "./section";

export const PANE_SECTIONS = {
  /** Its grants, when not the person's default (a template's agent pane, a fan candidate, a level
   * the person gave). */
  grants: GRANTS_SECTION,
  /** Its agent's last status. */
  agent: AGENT_SECTION,
  /** Prompts queued for its agent (ws agent send --when), in order; typed after a restore when the
   * agent reports it waits for input. */
  prompts: PROMPTS_SECTION,
};

/** A saved pane's feature sections, each optional. */
export type SavedPaneSections = { [K in keyof typeof PANE_SECTIONS]?: SectionValue<(typeof PANE_SECTIONS)[K]> };

export const BODY_SECTIONS = {
  /** The session's workstreams. */
  workstreams: WORKSTREAMS_SECTION,
};

/** A save body's feature sections, each optional. */
export type SavedBodySections = { [K in keyof typeof BODY_SECTIONS]?: SectionValue<(typeof BODY_SECTIONS)[K]> };
