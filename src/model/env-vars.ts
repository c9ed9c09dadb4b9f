// The rule for the environment a request gives a pane (`env` on tab_new, split and layout leaves):
// POSIX names, string values without NUL (the system takes none), bounded in count and size.
// Pure, so the protocol schema can check with it too.
import { MAX_ENV_BYTES, MAX_ENV_VARS } from "./limits";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What is wrong with an `env` object, or undefined if it is fine. `field` names it in the message. */
export function envProblem(env: unknown, field = "env"): string | undefined {
  if (typeof env !== "object" || env === null || Array.isArray(env)) return `\`${field}\` must be an object of NAME: "value" strings`;
  const entries = Object.entries(env);
  if (entries.length > MAX_ENV_VARS) return `\`${field}\` sets ${entries.length} variables (at most ${MAX_ENV_VARS})`;
  let bytes = 0;
  for (const [k, v] of entries) {
    if (!NAME.test(k)) return `\`${field}\` has the name ${JSON.stringify(k)}: names are letters, digits and _, not starting with a digit`;
    if (typeof v !== "string") return `\`${field}.${k}\` must be a string`;
    if (v.includes("\0")) return `\`${field}.${k}\` holds a NUL character`;
    bytes += Buffer.byteLength(k) + Buffer.byteLength(v) + 2;
  }
  if (bytes > MAX_ENV_BYTES) return `\`${field}\` is ${bytes} bytes (at most ${MAX_ENV_BYTES})`;
  return undefined;
}
