import { describe, expect, test } from "bun:test";
import {
  FrameDecoder, encodeFrame, encodeOutput, encodeExit, frameText,
  FRAME_OUTPUT, FRAME_EXIT, FRAME_EVENT, MAX_FRAME_PAYLOAD,
} from "../src/protocol/frames";

describe("frame codec", () => {
  test("header is kind then big-endian length", () => {
    const f = encodeOutput("hi");
    expect([...f]).toEqual([0, 0, 0, 0, 2, 104, 105]);
    const big = encodeFrame(FRAME_EVENT, new Uint8Array(0x010203));
    expect([...big.subarray(0, 5)]).toEqual([2, 0, 1, 2, 3]);
  });

  test("decodes frames split at every byte boundary", () => {
    const stream = new Uint8Array([...encodeOutput("hello"), ...encodeExit({ reason: "detached" }), ...encodeOutput("")]);
    for (let step = 1; step <= stream.length; step++) {
      const d = new FrameDecoder();
      const got: string[] = [];
      for (let i = 0; i < stream.length; i += step) {
        for (const f of d.push(stream.subarray(i, i + step))) got.push(`${f.kind}:${frameText(f)}`);
      }
      expect(got).toEqual(["0:hello", '1:{"reason":"detached"}', "0:"]);
      expect(d.pending).toBe(0);
    }
  });

  test("skips unknown kinds", () => {
    const d = new FrameDecoder();
    const frames = d.push(new Uint8Array([...encodeFrame(9, "zzz"), ...encodeFrame(FRAME_EXIT, "{}")]));
    expect(frames.map((f) => f.kind)).toEqual([FRAME_EXIT]);
  });

  test("rejects oversized payloads", () => {
    const hdr = new Uint8Array(5);
    hdr[0] = FRAME_OUTPUT;
    new DataView(hdr.buffer).setUint32(1, MAX_FRAME_PAYLOAD + 1);
    expect(() => new FrameDecoder().push(hdr)).toThrow(/too large/);
    expect(() => encodeFrame(0, new Uint8Array(MAX_FRAME_PAYLOAD + 1))).toThrow(/too large/);
  });

  test("payload copies survive later pushes", () => {
    const d = new FrameDecoder();
    const [a] = d.push(encodeOutput("first"));
    d.push(encodeOutput("second"));
    expect(frameText(a!)).toBe("first");
  });
});
