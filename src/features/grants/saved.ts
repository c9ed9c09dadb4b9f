// What the grants feature keeps in a saved pane: its grants, when not the person's default.
import { type GrantLevel, isGrantLevel } from "../../protocol/grants";
import type { PaneSection } from "../persistence/section";

export const GRANTS_SECTION: PaneSection<GrantLevel> = {
  check: (v) => (isGrantLevel(v) ? { value: v } : { note: "its grants are not a level; it gets the default" }),
};
