// The little of MessagePack that Neovim's RPC needs: encoding requests (nil, booleans, integers,
// strings, arrays) and decoding any reply. Pure: test/nvim-msgpack.test.ts checks it.

export type Packable = null | boolean | number | string | Packable[];

/** An ext value (Neovim's Buffer, Window, Tabpage handles). */
export interface Ext {
  ext: number;
  data: Uint8Array;
}

export function encode(v: Packable): Uint8Array {
  const out: number[] = [];
  const u = (n: number, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) out.push(Math.floor(n / 2 ** (8 * i)) & 0xff);
  };
  const put = (x: Packable): void => {
    if (x === null) out.push(0xc0);
    else if (x === false) out.push(0xc2);
    else if (x === true) out.push(0xc3);
    else if (typeof x === "number") {
      if (!Number.isSafeInteger(x)) throw new Error(`can't encode ${x}: integers only`);
      if (x >= 0 && x < 128) out.push(x);
      else if (x < 0 && x >= -32) out.push(x & 0xff);
      else if (x >= 0 && x <= 0xffffffff) (out.push(0xce), u(x, 4));
      else if (x >= -0x80000000 && x < 0) (out.push(0xd2), u(x >>> 0, 4));
      else throw new Error(`can't encode ${x}: out of 32-bit range`);
    } else if (typeof x === "string") {
      const b = new TextEncoder().encode(x);
      if (b.length < 32) out.push(0xa0 | b.length);
      else if (b.length < 0x100) out.push(0xd9, b.length);
      else if (b.length < 0x10000) (out.push(0xda), u(b.length, 2));
      else (out.push(0xdb), u(b.length, 4));
      for (const c of b) out.push(c);
    } else {
      if (x.length < 16) out.push(0x90 | x.length);
      else if (x.length < 0x10000) (out.push(0xdc), u(x.length, 2));
      else (out.push(0xdd), u(x.length, 4));
      for (const e of x) put(e);
    }
  };
  put(v);
  return Uint8Array.from(out);
}

/** Thrown when the bytes end inside a value: wait for more. */
export class Incomplete extends Error {}

/** Decode one value from `buf` at `pos`; returns it and where the next one starts. */
export function decode(buf: Uint8Array, pos = 0): { value: unknown; end: number } {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let p = pos;
  const need = (n: number) => {
    if (p + n > buf.length) throw new Incomplete();
  };
  const take = (n: number) => {
    need(n);
    const s = buf.subarray(p, p + n);
    p += n;
    return s;
  };
  const uint = (n: number): number => {
    need(n);
    const v = n === 1 ? view.getUint8(p) : n === 2 ? view.getUint16(p) : n === 4 ? view.getUint32(p) : Number(view.getBigUint64(p));
    p += n;
    return v;
  };
  const int = (n: number): number => {
    need(n);
    const v = n === 1 ? view.getInt8(p) : n === 2 ? view.getInt16(p) : n === 4 ? view.getInt32(p) : Number(view.getBigInt64(p));
    p += n;
    return v;
  };
  const str = (n: number) => new TextDecoder().decode(take(n));
  // Each element takes a byte at least: a count past the bytes held waits for more, so a made-up
  // count never sizes an array.
  const arr = (n: number): unknown[] => {
    need(n);
    return Array.from({ length: n }, () => one());
  };
  const map = (n: number): Map<unknown, unknown> => {
    need(2 * n);
    const m = new Map<unknown, unknown>();
    for (let i = 0; i < n; i++) m.set(one(), one());
    return m;
  };
  const ext = (n: number): Ext => {
    const type = int(1);
    return { ext: type, data: take(n) };
  };
  function one(): unknown {
    const t = uint(1);
    if (t < 0x80) return t;
    if (t >= 0xe0) return t - 0x100;
    if ((t & 0xf0) === 0x80) return map(t & 0x0f);
    if ((t & 0xf0) === 0x90) return arr(t & 0x0f);
    if ((t & 0xe0) === 0xa0) return str(t & 0x1f);
    switch (t) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: return take(uint(1));
      case 0xc5: return take(uint(2));
      case 0xc6: return take(uint(4));
      case 0xc7: return ext(uint(1));
      case 0xc8: return ext(uint(2));
      case 0xc9: return ext(uint(4));
      case 0xca: need(4); p += 4; return view.getFloat32(p - 4);
      case 0xcb: need(8); p += 8; return view.getFloat64(p - 8);
      case 0xcc: return uint(1);
      case 0xcd: return uint(2);
      case 0xce: return uint(4);
      case 0xcf: return uint(8);
      case 0xd0: return int(1);
      case 0xd1: return int(2);
      case 0xd2: return int(4);
      case 0xd3: return int(8);
      case 0xd4: return ext(1);
      case 0xd5: return ext(2);
      case 0xd6: return ext(4);
      case 0xd7: return ext(8);
      case 0xd8: return ext(16);
      case 0xd9: return str(uint(1));
      case 0xda: return str(uint(2));
      case 0xdb: return str(uint(4));
      case 0xdc: return arr(uint(2));
      case 0xdd: return arr(uint(4));
      case 0xde: return map(uint(2));
      case 0xdf: return map(uint(4));
    }
    throw new Error(`not MessagePack: byte 0x${t.toString(16)}`);
  }
  const value = one();
  return { value, end: p };
}
