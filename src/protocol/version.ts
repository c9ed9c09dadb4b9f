// The protocol versions this build speaks (spec: "Versions").
export const VERSION = 5;
export const MIN_VERSION = 1;
/** A line may be up to 1 MiB, newline excluded. */
export const MAX_LINE = 1024 * 1024;
