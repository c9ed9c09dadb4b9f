// The protocol versions this build speaks (spec: "Versions").
export const VERSION = 6;
export const MIN_VERSION = 1;
/**
 * Replies to lines sent at v1–v5 keep the envelope they had before v6 existed: JSON replies carry
 * `"v":5` and errors of unreadable lines are plain `error: …` lines. Only v6 lines get v6 replies.
 */
export const LEGACY_REPLY_VERSION = 5;
/** The first version with the structured envelope (`id`, error `code` and `hint`, strict fields). */
export const STRUCTURED_VERSION = 6;
/** A line may be up to 1 MiB, newline excluded. */
export const MAX_LINE = 1024 * 1024;
