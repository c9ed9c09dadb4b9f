// A value kept a long time and rarely read (a resting pane's state, resting-emulator.ts), held as
// one serialized buffer instead of its tens of small objects. Those objects are made as the pane's
// emulator is let go of, into the collector's blocks among the emulator's freed objects, and each
// keeps a block from being given back: measured, a resting `sh` pane's state took ~16 KB of RSS
// that way, as one buffer ~4 KB (docs/pane-pipeline.md). Plain data (objects, arrays, Maps, typed
// arrays, strings, numbers) goes into the buffer; an instance of a class whose constructor takes
// no arguments (xterm's pens) is made again from its own fields; any other object (the history
// store) is kept as it is, by reference, and put back in its place.
import { deserialize, serialize } from "bun:jsc";

export interface PackedValue<T> {
  readonly bytes: ArrayBufferLike;
  /** Objects kept by reference, and the classes of those made again, by index. */
  readonly refs: readonly object[];
  /** (Only for the type: unpack gives back a T.) */
  readonly _type?: T;
}

/** Keys no plain value here has: where a kept object goes, and an object to make again. */
const REF = "\u0000ref";
const CLASS = "\u0000class";

type Ctor = new () => object;

function isPlain(v: object): boolean {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null || Array.isArray(v) || v instanceof Map || ArrayBuffer.isView(v);
}

/** The class `v` can be made again from (its own fields all data, its constructor taking none). */
function remakeable(v: object): Ctor | undefined {
  const C = (Object.getPrototypeOf(v) as { constructor?: unknown }).constructor;
  if (typeof C !== "function" || C.length !== 0) return undefined;
  for (const d of Object.values(Object.getOwnPropertyDescriptors(v))) if (!("value" in d) || typeof d.value === "function") return undefined;
  return C as Ctor;
}

/** `value` packed; unpack(packed) gives an equal value. */
export function pack<T>(value: T): PackedValue<T> {
  const refs: object[] = [];
  const seen = new Map<object, unknown>();
  const copy = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null || ArrayBuffer.isView(v)) return v;
    const done = seen.get(v);
    if (done !== undefined) return done;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      seen.set(v, out);
      for (const x of v) out.push(copy(x));
      return out;
    }
    if (v instanceof Map) {
      const out = new Map();
      seen.set(v, out);
      for (const [k, x] of v) out.set(copy(k), copy(x));
      return out;
    }
    const out: Record<string, unknown> = {};
    if (!isPlain(v)) {
      const C = remakeable(v);
      if (!C) {
        const ref = { [REF]: refs.push(v) - 1 };
        seen.set(v, ref);
        return ref;
      }
      out[CLASS] = refs.push(C) - 1;
    }
    seen.set(v, out);
    for (const k of Object.keys(v)) out[k] = copy((v as Record<string, unknown>)[k]);
    return out;
  };
  return { bytes: serialize(copy(value)), refs };
}

export function unpack<T>(p: PackedValue<T>): T {
  const done = new Map<object, unknown>();
  const back = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null || ArrayBuffer.isView(v)) return v;
    if (done.has(v)) return done.get(v);
    const r = v as Record<string, unknown>;
    if (REF in r) return p.refs[r[REF] as number];
    if (Array.isArray(v)) {
      done.set(v, v);
      for (let i = 0; i < v.length; i++) v[i] = back(v[i]);
      return v;
    }
    if (v instanceof Map) {
      done.set(v, v);
      for (const [k, x] of v) v.set(k, back(x));
      return v;
    }
    let out: Record<string, unknown> = r;
    if (CLASS in r) {
      out = new (p.refs[r[CLASS] as number] as Ctor)() as Record<string, unknown>;
      delete r[CLASS];
    }
    done.set(v, out);
    for (const k of Object.keys(r)) out[k] = back(r[k]);
    return out;
  };
  return back(deserialize(p.bytes)) as T;
}
