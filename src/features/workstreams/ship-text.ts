// A workstream's ship state in words, for the dashboard (on screen and `ws dashboard`).

/** How a row reads: `pushed`, `pushed, 2 ahead`, `2 ahead, not pushed`, `not pushed`. */
export function shipText(w: { ahead?: number; pushed?: boolean }): string | undefined {
  if (w.pushed === undefined) return undefined;
  const ahead = w.ahead ? `${w.ahead} ahead` : "";
  return w.pushed ? (ahead ? `pushed, ${ahead}` : "pushed") : ahead ? `${ahead}, not pushed` : "not pushed";
}
