// Field schemas for protocol messages: the one description that drives validation, the CLI's help
// and the docs. Kept free of server imports so the CLI can load it cheaply.

export type FieldType =
  | "integer"
  | "boolean"
  | "string"
  | "string[]"
  | "pairs" // array of [name, value] string pairs
  | "object"
  | "any";

export interface FieldSpec {
  type: FieldType;
  /** Required fields have no default. */
  required?: boolean;
  default?: unknown;
  /** For strings: the accepted values. */
  accepted?: readonly string[];
  description: string;
  /** Validates an object-typed field's contents (returns an error message or undefined). */
  check?: (value: unknown) => string | undefined;
}

export type Fields = Record<string, FieldSpec>;

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function checkType(name: string, spec: FieldSpec, v: unknown): string | undefined {
  const bad = (want: string) => `invalid type for \`${name}\`: ${typeName(v)}, expected ${want}`;
  switch (spec.type) {
    case "integer":
      return Number.isSafeInteger(v) ? undefined : bad("an integer");
    case "boolean":
      return typeof v === "boolean" ? undefined : bad("a boolean");
    case "string":
      if (typeof v !== "string") return bad("a string");
      if (spec.accepted && !spec.accepted.includes(v))
        return `invalid value for \`${name}\`: "${v}", expected one of ${spec.accepted.join(", ")}`;
      return undefined;
    case "string[]":
      return Array.isArray(v) && v.every((x) => typeof x === "string") ? undefined : bad("an array of strings");
    case "pairs":
      return Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === "string"))
        ? undefined
        : bad("an array of [name, value] string pairs");
    case "object":
      if (typeof v !== "object" || v === null || Array.isArray(v)) return bad("an object");
      return spec.check?.(v);
    case "any":
      return undefined;
  }
}

/**
 * Check a message's fields against its schema and fill in defaults. Unknown fields are ignored, as
 * the spec's compatibility story needs (older servers ignore newer fields such as `size`).
 */
export function validateFields(fields: Fields, msg: Record<string, unknown>): { params: Record<string, unknown> } | { error: string } {
  const params: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields)) {
    const v = msg[name];
    if (v === undefined || (v === null && !spec.required && spec.type !== "any")) {
      if (spec.required) return { error: `missing field \`${name}\`` };
      if (spec.default !== undefined) params[name] = structuredClone(spec.default);
      continue;
    }
    const problem = checkType(name, spec, v);
    if (problem) return { error: problem };
    params[name] = v;
  }
  return { params };
}
