// Field schemas for protocol messages: the one description that drives validation, the CLI's help,
// the `describe` catalogue and the docs. Kept free of server imports so the CLI can load it cheaply.
import { nameProblem } from "./names";

export type FieldType =
  | "integer"
  | "number"
  | "boolean"
  | "string"
  | "string[]"
  | "integer[]"
  | "pairs" // array of [name, value] string pairs
  | "object"
  | "any";

export interface FieldSpec {
  type: FieldType;
  /** Required fields have no default. */
  required?: boolean;
  /** Required in lines sent below this version only: it became optional then (v1–v5 lines keep
   * the refusal they always got). */
  requiredBefore?: number;
  default?: unknown;
  /** For strings: the accepted values. For string[]: the accepted values of each element. */
  accepted?: readonly string[];
  /** For strings: the value is a name, held to the one rule of src/protocol/names.ts. */
  name?: boolean;
  /** For integers and numbers (and each of an integer[]'s): the smallest and largest accepted value. */
  min?: number;
  max?: number;
  description: string;
  /** Validates an object-typed field's contents (returns an error message or undefined). */
  check?: (value: unknown) => string | undefined;
  /** For object fields: the shape, for the catalogue (e.g. the layout tree grammar). */
  shape?: string;
  /** For object fields of strings: the CLI takes it as a repeatable `--flag NAME=VALUE`. */
  keyValue?: boolean;
  /** For a required string with accepted values (a discriminator, e.g. wait_for's condition): the
   * fields each value needs. The wire stays flat; validation refuses a line that lacks one. */
  requires?: Readonly<Record<string, readonly string[]>>;
  /** Type only: what an object or any field's value is (see `typed`). */
  readonly [valueType]?: unknown;
}

export type Fields = Record<string, FieldSpec>;

declare const valueType: unique symbol;

/** An object or any field whose value has a known TypeScript type (the schema checks it with
 * `check`; the type is what handlers see): `typed<TreeNode>()({ type: "object", … })`. */
export const typed =
  <T>() =>
  <const S extends FieldSpec & { type: "object" | "any" }>(spec: S): S & { readonly [valueType]?: T } =>
    spec as S & { readonly [valueType]?: T };

/** The TypeScript type of one field's value, as validation lets it through (TypeBox's `Static`). */
export type FieldValue<S> = S extends { type: "integer" | "number" }
  ? number
  : S extends { type: "boolean" }
    ? boolean
    : S extends { type: "string"; accepted: readonly (infer A)[] }
      ? A
      : S extends { type: "string" }
        ? string
        : S extends { type: "string[]"; accepted: readonly (infer A)[] }
          ? A[]
          : S extends { type: "string[]" }
            ? string[]
            : S extends { type: "integer[]" }
              ? number[]
              : S extends { type: "pairs" }
                ? [string, string][]
                : S extends { type: "object" }
                  ? unknown extends Declared<S>
                    ? Record<string, unknown>
                    : Declared<S>
                  : Declared<S>;

/** The type `typed` gave a field, else unknown. */
type Declared<S> = typeof valueType extends keyof S ? Exclude<S[typeof valueType], undefined> : unknown;

/** Fields always present after validation: required ones and those with a default. */
// biome-ignore lint/complexity/noBannedTypes: `{} | null` is "any default value but undefined", on purpose.
type PresentKeys<F> = { [K in keyof F]: F[K] extends { required: true } ? K : F[K] extends { default: {} | null } ? K : never }[keyof F];

type Flatten<T> = { [K in keyof T]: T[K] } & {};

type Plain<F> = Flatten<{ [K in PresentKeys<F>]: FieldValue<F[K]> } & { [K in Exclude<keyof F, PresentKeys<F>>]?: FieldValue<F[K]> }>;

/** The field (if any) whose values each require other fields. */
type Discriminator<F> = { [K in keyof F]: F[K] extends { requires: object } ? K : never }[keyof F];

type Variant<F, D extends keyof F, V extends string, R extends PropertyKey> = Flatten<
  Omit<Plain<F>, D | R> & { [K in D]: V } & { [K in R & keyof F]-?: FieldValue<F[K]> }
>;

type Variants<F, D extends keyof F> = F[D] extends { requires: infer Q }
  ? { [V in keyof Q & string]: Variant<F, D, V, Q[V] extends readonly (infer R extends PropertyKey)[] ? R : never> }[keyof Q & string]
  : never;

/** A message's parameters as its handler gets them, inferred from its fields. */
export type Static<F> = [Discriminator<F>] extends [never] ? Plain<F> : Variants<F, Discriminator<F>>;

export interface FieldProblem {
  message: string;
  param: string;
  accepted?: readonly unknown[];
  /** The value sent, when it was a string that may be a typo of an accepted one. */
  sent?: string;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function checkType(name: string, spec: FieldSpec, v: unknown): FieldProblem | undefined {
  const bad = (want: string): FieldProblem => ({ message: `invalid type for \`${name}\`: ${typeName(v)}, expected ${want}`, param: name });
  const range = (n: number): FieldProblem | undefined => {
    if (spec.min !== undefined && n < spec.min) return { message: `invalid value for \`${name}\`: ${n}, expected at least ${spec.min}`, param: name };
    if (spec.max !== undefined && n > spec.max) return { message: `invalid value for \`${name}\`: ${n}, expected at most ${spec.max}`, param: name };
    return undefined;
  };
  switch (spec.type) {
    case "integer":
      return Number.isSafeInteger(v) ? range(v as number) : bad("an integer");
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? range(v) : bad("a number");
    case "boolean":
      return typeof v === "boolean" ? undefined : bad("a boolean");
    case "string":
      if (typeof v !== "string") return bad("a string");
      if (spec.accepted && !spec.accepted.includes(v))
        return { message: `invalid value for \`${name}\`: "${v}", expected one of ${spec.accepted.join(", ")}`, param: name, accepted: spec.accepted, sent: v };
      if (spec.name) {
        const problem = nameProblem(v);
        if (problem) return { message: `invalid name in \`${name}\`: it ${problem}`, param: name };
      }
      return undefined;
    case "string[]": {
      if (!(Array.isArray(v) && v.every((x) => typeof x === "string"))) return bad("an array of strings");
      const off = spec.accepted ? (v as string[]).find((x) => !spec.accepted!.includes(x)) : undefined;
      if (off !== undefined)
        return { message: `invalid value in \`${name}\`: "${off}", expected any of ${spec.accepted!.join(", ")}`, param: name, accepted: spec.accepted, sent: off };
      return undefined;
    }
    case "integer[]": {
      if (!(Array.isArray(v) && v.every((x) => Number.isSafeInteger(x)))) return bad("an array of integers");
      for (const n of v as number[]) {
        const off = range(n);
        if (off) return off;
      }
      return undefined;
    }
    case "pairs":
      return Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === "string"))
        ? undefined
        : bad("an array of [name, value] string pairs");
    case "object": {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return bad("an object");
      const m = spec.check?.(v);
      return m ? { message: m, param: name } : undefined;
    }
    case "any":
      return undefined;
  }
}

export interface ValidateOptions {
  /**
   * Refuse fields the schema does not name (v6). Without it unknown fields are ignored, as the
   * spec's compatibility story needs for v1–v5 (older servers ignore newer fields such as `size`).
   */
  strict?: boolean;
  /** Envelope fields that are never the message's own (`v`, `type`, `id`). */
  envelope?: readonly string[];
  /** The version the line was sent at (for `requiredBefore`). */
  version?: number;
}

/** Check a message's fields against its schema and fill in defaults. */
export function validateFields(
  fields: Fields,
  msg: Record<string, unknown>,
  o: ValidateOptions = {},
): { params: Record<string, unknown> } | { error: string; problem: FieldProblem } {
  if (o.strict) {
    for (const name of Object.keys(msg)) {
      if (o.envelope?.includes(name) || Object.hasOwn(fields, name)) continue;
      const accepted = Object.keys(fields);
      const problem: FieldProblem = { message: `unknown field \`${name}\`${accepted.length ? ` (accepted: ${accepted.join(", ")})` : " (this message takes no fields)"}`, param: name, accepted, sent: name };
      return { error: problem.message, problem };
    }
  }
  const params: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields)) {
    const v = msg[name];
    if (v === undefined || (v === null && !spec.required && spec.type !== "any")) {
      if (spec.required || (spec.requiredBefore !== undefined && o.version !== undefined && o.version < spec.requiredBefore))
        return { error: `missing field \`${name}\``, problem: { message: `missing field \`${name}\``, param: name } };
      if (spec.default !== undefined) params[name] = structuredClone(spec.default);
      continue;
    }
    const problem = checkType(name, spec, v);
    if (problem) return { error: problem.message, problem };
    params[name] = v;
  }
  for (const [name, spec] of Object.entries(fields)) {
    const needs = spec.requires?.[params[name] as string];
    const missing = needs?.find((f) => params[f] === undefined);
    if (missing !== undefined) {
      const message = `${name} ${params[name]} needs \`${missing}\``;
      return { error: message, problem: { message, param: missing } };
    }
  }
  return { params };
}

/** One field of something the server sends (a reply, an event): its type, for the catalogue and,
 * for the plain ones, the TypeScript type the sender must give and clients read; and its meaning. */
export interface ShapeField {
  type: string;
  description: string;
  /** Left out of some (a condition's own fields, a pane that exited): the type says so. */
  optional?: boolean;
  /** Type only: what an array or object field's value is (see `shapeTyped`). */
  readonly [shapeValueType]?: unknown;
}

export type ShapeFields = Record<string, ShapeField>;

declare const shapeValueType: unique symbol;

/** A field whose value has a TypeScript type its catalogue `type` can't say (an array of rows, an
 * object): `shapeTyped<PaneListing[]>()({ type: "array", description: … })`. */
export const shapeTyped =
  <T>() =>
  <const S extends ShapeField>(spec: S): S & { readonly [shapeValueType]?: T } =>
    spec as S & { readonly [shapeValueType]?: T };

/** The TypeScript type of one field's value, from its catalogue type or `shapeTyped`. */
type ShapeValue<S> = typeof shapeValueType extends keyof S
  ? Exclude<S[typeof shapeValueType], undefined>
  : S extends { type: "integer" | "number" }
    ? number
    : S extends { type: "string" }
      ? string
      : S extends { type: "boolean" }
        ? boolean
        : S extends { type: "string[]" }
          ? string[]
          : S extends { type: "integer[]" }
            ? number[]
            : S extends { type: "integer|null" }
              ? number | null
              : S extends { type: "string|null" }
                ? string | null
                : unknown;

/** The same fields, each left out of some (a reply of one kind or another). */
export function optionalFields<const SF extends ShapeFields>(fields: SF): { [K in keyof SF]: SF[K] & { optional: true } } {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, { ...f, optional: true }])) as { [K in keyof SF]: SF[K] & { optional: true } };
}

type OptionalKeys<SF> = { [K in keyof SF]: SF[K] extends { optional: true } ? K : never }[keyof SF];

/** The object these fields describe (with `head`'s fields first, e.g. a reply's `type`). */
export type Shape<SF, Head = unknown> = Flatten<Head & { [K in Exclude<keyof SF, OptionalKeys<SF>>]: ShapeValue<SF[K]> } & { [K in OptionalKeys<SF>]?: ShapeValue<SF[K]> }>;
