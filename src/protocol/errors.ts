// Errors a handler reports to the client. `code` and `hint` are for structured (newer) replies;
// `message` is the human text every protocol version carries.

export interface ErrorHint {
  param?: string;
  accepted?: unknown[];
  did_you_mean?: string;
  available?: unknown[];
  command?: string;
}

export class WsError extends Error {
  constructor(
    message: string,
    readonly code: string = "invalid_request",
    readonly hint?: ErrorHint,
  ) {
    super(message);
  }
}

/** `(have: a, b)` — errors name what exists so the fix is obvious. */
export function have(names: (string | number)[]): string {
  return names.length ? ` (have: ${names.join(", ")})` : " (have: none)";
}
