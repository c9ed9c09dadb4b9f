// MessagePack as Neovim's RPC needs it (src/features/nvim/msgpack.ts), checked against the spec's
// bytes: integers at every width's boundary, negative fixint, str8/16/32, bin, ext, floats, nested
// maps and arrays; a value cut short waits for more (Incomplete) at every cut; and a length the
// bytes can't hold never sizes anything.
import { describe, expect, test } from "bun:test";
import { decode, encode, Incomplete, type Packable } from "../src/features/nvim/msgpack";

const bytes = (...b: number[]) => Uint8Array.from(b);
const be = (n: number, width: number) => Array.from({ length: width }, (_, i) => Math.floor(n / 2 ** (8 * (width - 1 - i))) & 0xff);
const value = (b: Uint8Array) => {
  const d = decode(b);
  expect(d.end).toBe(b.length);
  return d.value;
};

describe("integers", () => {
  test("encoded in the smallest form this encoder has, at each boundary", () => {
    const cases: [number, number[]][] = [
      [0, [0x00]],
      [127, [0x7f]],
      [128, [0xce, ...be(128, 4)]],
      [0xffffffff, [0xce, 0xff, 0xff, 0xff, 0xff]],
      [-1, [0xff]],
      [-32, [0xe0]],
      [-33, [0xd2, ...be(-33 >>> 0, 4)]],
      [-0x80000000, [0xd2, 0x80, 0, 0, 0]],
    ];
    for (const [n, want] of cases) {
      expect([...encode(n)], String(n)).toEqual(want);
      expect(value(encode(n)), String(n)).toBe(n);
    }
  });

  test("past 32 bits, or not an integer: refused, not mangled", () => {
    for (const n of [0x100000000, -0x80000001, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(() => encode(n)).toThrow();
  });

  test("every width decodes, signed and unsigned, at its limits", () => {
    expect(value(bytes(0xcc, 0xff))).toBe(255);
    expect(value(bytes(0xcd, 0xff, 0xff))).toBe(65535);
    expect(value(bytes(0xce, 0xff, 0xff, 0xff, 0xff))).toBe(4294967295);
    expect(value(bytes(0xcf, 0x00, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(Number.MAX_SAFE_INTEGER);
    expect(value(bytes(0xd0, 0x80))).toBe(-128);
    expect(value(bytes(0xd0, 0x7f))).toBe(127);
    expect(value(bytes(0xd1, 0x80, 0x00))).toBe(-32768);
    expect(value(bytes(0xd2, 0x80, 0, 0, 0))).toBe(-2147483648);
    expect(value(bytes(0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(-1);
    for (let t = 0xe0; t <= 0xff; t++) expect(value(bytes(t))).toBe(t - 256); // negative fixint -32..-1
    expect(value(bytes(0xca, 0x3f, 0xc0, 0, 0))).toBe(1.5);
    expect(value(bytes(0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18))).toBe(Math.PI);
  });
});

describe("strings", () => {
  test("fixstr up to 31 bytes, then str8, str16, str32, by UTF-8 length", () => {
    const cases: [number, number[]][] = [
      [0, [0xa0]],
      [31, [0xbf]],
      [32, [0xd9, 32]],
      [255, [0xd9, 255]],
      [256, [0xda, 0x01, 0x00]],
      [65535, [0xda, 0xff, 0xff]],
      [65536, [0xdb, 0x00, 0x01, 0x00, 0x00]],
    ];
    for (const [len, head] of cases) {
      const s = "x".repeat(len);
      const b = encode(s);
      expect([...b.subarray(0, head.length)], `length ${len}`).toEqual(head);
      expect(b.length).toBe(head.length + len);
      expect(value(b)).toBe(s);
    }
    // 11 characters, 31 bytes in UTF-8 (the length counts bytes): still a fixstr; one more is str8.
    const s31 = "日".repeat(10) + "z";
    expect(encode(s31)[0]).toBe(0xa0 | 31);
    expect(encode(s31 + "z")[0]).toBe(0xd9);
    expect(value(encode(s31))).toBe(s31);
  });
});

describe("containers and others", () => {
  test("fixarray up to 15, then array16 and array32; nested values round-trip", () => {
    for (const [len, head] of [
      [15, [0x9f]],
      [16, [0xdc, 0x00, 0x10]],
      [65535, [0xdc, 0xff, 0xff]],
      [65536, [0xdd, 0x00, 0x01, 0x00, 0x00]],
    ] as [number, number[]][]) {
      const a = Array.from({ length: len }, (_, i) => i % 100);
      const b = encode(a);
      expect([...b.subarray(0, head.length)], `length ${len}`).toEqual(head);
      expect(value(b)).toEqual(a);
    }
    const nested: Packable = [1, [2, [3, ["four", null, true, false, [-5, [0xffffffff]]]]], []];
    expect(value(encode(nested))).toEqual(nested);
  });

  test("maps (fix, 16, 32) decode to Maps, nested in arrays and in each other", () => {
    // {"a": [1, {"b": nil}], 2: false}
    const m = value(bytes(0x82, 0xa1, 0x61, 0x92, 0x01, 0x81, 0xa1, 0x62, 0xc0, 0x02, 0xc2)) as Map<unknown, unknown>;
    expect([...m.keys()]).toEqual(["a", 2]);
    expect(m.get(2)).toBe(false);
    const inner = m.get("a") as unknown[];
    expect(inner[0]).toBe(1);
    expect((inner[1] as Map<unknown, unknown>).get("b")).toBeNull();
    expect(value(bytes(0xde, 0x00, 0x01, 0x01, 0x02))).toEqual(new Map([[1, 2]]));
    expect(value(bytes(0xdf, 0x00, 0x00, 0x00, 0x01, 0xa0, 0x90))).toEqual(new Map([["", []]]));
  });

  test("bin 8/16/32 give bytes; ext (Neovim's handles) gives its type and data", () => {
    expect(value(bytes(0xc4, 3, 1, 2, 3))).toEqual(bytes(1, 2, 3));
    expect(value(bytes(0xc5, 0, 2, 9, 8))).toEqual(bytes(9, 8));
    expect(value(bytes(0xc6, 0, 0, 0, 0))).toEqual(bytes());
    expect(value(bytes(0xd4, 0x01, 0x05))).toEqual({ ext: 1, data: bytes(5) }); // a Window
    expect(value(bytes(0xc7, 2, 0xff, 7, 7))).toEqual({ ext: -1, data: bytes(7, 7) });
    expect(value(bytes(0xd5, 0x00, 1, 2))).toEqual({ ext: 0, data: bytes(1, 2) });
  });

  test("values follow one another: `end` is where the next starts", () => {
    const b = Uint8Array.from([...encode([1, "a"]), ...encode(-7), ...encode("zz")]);
    const first = decode(b);
    const second = decode(b, first.end);
    const third = decode(b, second.end);
    expect([first.value, second.value, third.value]).toEqual([[1, "a"], -7, "zz"]);
    expect(third.end).toBe(b.length);
  });

  test("a byte MessagePack does not use is an error, not a wait", () => {
    let e: unknown;
    try {
      decode(bytes(0xc1));
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(Incomplete);
    expect((e as Error).message).toContain("0xc1");
  });
});

describe("input cut short and made-up sizes", () => {
  test("every proper prefix of a message waits for more (Incomplete), never a wrong value", () => {
    const whole = Uint8Array.from([
      ...encode([1, 0, null, ["nvim_win_get_cursor", [0x7fffffff, -0x80000000, "x".repeat(300), [[true], "日本"]]]]),
      ...bytes(0x82, 0xa1, 0x61, 0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18, 0xc4, 2, 1, 2, 0xd6, 3, 1, 2, 3, 4),
    ]);
    const split = decode(whole).end;
    for (let cut = 0; cut < split; cut++) expect(() => decode(whole.subarray(0, cut)), `cut at ${cut}`).toThrow(Incomplete);
    for (let cut = split; cut < whole.length; cut++) expect(() => decode(whole.subarray(0, cut), split), `cut at ${cut}`).toThrow(Incomplete);
    expect(decode(whole, split).end).toBe(whole.length);
  });

  test("a length past the bytes held waits instead of allocating it", () => {
    const max32 = [0xff, 0xff, 0xff, 0xff];
    for (const head of [
      [0xdd, ...max32], // array32
      [0xdf, ...max32], // map32
      [0xdb, ...max32], // str32
      [0xc6, ...max32], // bin32
      [0xc9, ...max32, 0x01], // ext32
      [0xdc, 0xff, 0xff], // array16
      [0xde, 0xff, 0xff], // map16
    ]) {
      expect(() => decode(Uint8Array.from([...head, 1, 2, 3])), head.join(" ")).toThrow(Incomplete);
    }
  });
});
