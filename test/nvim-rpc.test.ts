// The Neovim RPC client's reader (src/features/nvim/rpc.ts) over a real Unix socket: replies split
// into single bytes, several in one chunk, and out of order all arrive whole; a reply over the
// 1 MiB cap is refused at once rather than held; a made-up element count sizes nothing; messages
// ws did not ask for are taken up to a bound (decoded a budget per turn), then the peer is dropped.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_NVIM_MESSAGE, MAX_UNASKED_BYTES, MAX_UNASKED_MESSAGES, connectNvim } from "../src/features/nvim/rpc";
import { decode, encode, Incomplete, type Packable } from "../src/features/nvim/msgpack";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A peer on a fresh socket: `answer` gets each request's id and method and writes what it likes. */
function peer(answer: (id: number, method: string, write: (b: Uint8Array) => void) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "nvim-rpc-"));
  dirs.push(dir);
  const path = join(dir, "sock");
  let pending = new Uint8Array(0);
  // Bun's socket write takes what fits and returns the count: the rest waits for drain.
  const queue: Uint8Array[] = [];
  const flush = (s: { write(b: Uint8Array): number }) => {
    while (queue.length) {
      const n = s.write(queue[0]!);
      if (n < queue[0]!.length) {
        queue[0] = queue[0]!.subarray(Math.max(0, n));
        return;
      }
      queue.shift();
    }
  };
  Bun.listen({
    unix: path,
    socket: {
      drain: (s) => flush(s),
      data(s, chunk) {
        const joined = new Uint8Array(pending.length + chunk.length);
        joined.set(pending);
        joined.set(chunk, pending.length);
        pending = joined;
        for (;;) {
          let msg: unknown;
          try {
            const d = decode(pending);
            msg = d.value;
            pending = pending.subarray(d.end);
          } catch (e) {
            if (e instanceof Incomplete) return;
            throw e;
          }
          const [, id, method] = msg as [number, number, string];
          answer(id, method, (b) => {
            queue.push(b);
            flush(s);
          });
        }
      },
    },
  });
  return path;
}

const reply = (id: number, result: Packable) => encode([1, id, null, result]);

test("replies split into single bytes, and several in one write, all arrive", async () => {
  const held: Uint8Array[] = [];
  const sock = peer((id, method, write) => {
    const bytes = reply(id, `${method}:${"é".repeat(id * 300)}`);
    if (id === 1) for (const b of bytes) write(Uint8Array.of(b));
    else {
      held.push(bytes);
      // Answer requests 2 and 3 together, 3 first.
      if (held.length === 2) {
        const both = new Uint8Array(held[0]!.length + held[1]!.length);
        both.set(held[1]!);
        both.set(held[0]!, held[1]!.length);
        write(both);
      }
    }
  });
  const nvim = await connectNvim(sock);
  try {
    expect(await nvim.request("a", [])).toBe(`a:${"é".repeat(300)}`);
    const [two, three] = await Promise.all([nvim.request("b", []), nvim.request("c", [])]);
    expect(two).toBe(`b:${"é".repeat(600)}`);
    expect(three).toBe(`c:${"é".repeat(900)}`);
  } finally {
    nvim.close();
  }
});

test("a reply over the cap is refused at once; a large one under it arrives", async () => {
  const sock = peer((id, method, write) => {
    const size = method === "big" ? MAX_NVIM_MESSAGE - 1024 : MAX_NVIM_MESSAGE + 1;
    write(reply(id, "x".repeat(size)));
  });
  const nvim = await connectNvim(sock);
  expect(((await nvim.request("big", [])) as string).length).toBe(MAX_NVIM_MESSAGE - 1024);
  const began = performance.now();
  await expect(nvim.request("huge", [])).rejects.toThrow(`over ${MAX_NVIM_MESSAGE} bytes`);
  expect(performance.now() - began).toBeLessThan(4000); // not the 5 s reply deadline
  nvim.close();
});

test("a made-up array or map count waits for bytes instead of sizing anything", () => {
  for (const head of [[0xdd, 0x7f, 0xff, 0xff, 0xff], [0xdf, 0x7f, 0xff, 0xff, 0xff], [0xdc, 0xff, 0xff]]) expect(() => decode(Uint8Array.from([...head, 1, 2, 3]))).toThrow(Incomplete);
  expect(decode(Uint8Array.from([0x93, 1, 2, 3])).value).toEqual([1, 2, 3]);
});

/** `n` copies of one message in one buffer. */
function repeated(msg: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(msg.length * n);
  for (let i = 0; i < n; i++) out.set(msg, i * msg.length);
  return out;
}

test("notifications and requests ws did not ask for, up to the bound, are read past: the answer arrives", async () => {
  const note = encode([2, "x", []]);
  const theirs = encode([0, 7, "nvim_buf_lines_event", [1, 2]]);
  const sock = peer((id, _method, write) => {
    // Many turns' worth in one write, the answer at its end.
    const n = Math.floor((MAX_UNASKED_MESSAGES - 10) / 2);
    write(repeated(note, n));
    write(repeated(theirs, n));
    write(reply(id, "here"));
  });
  const nvim = await connectNvim(sock);
  try {
    expect(await nvim.request("a", [])).toBe("here");
  } finally {
    nvim.close();
  }
});

test("a backlog is decoded a budget per turn: the event loop turns many times before its answer", async () => {
  const note = encode([2, "x", []]);
  let turns = 0;
  let answered = false;
  const sock = peer((id, _method, write) => {
    write(repeated(note, 9000));
    write(reply(id, "here"));
    // Count the loop's turns from now until the answer is decoded: all at once would be a turn or
    // a few (one per chunk read); a budget of some hundred messages a turn takes many more.
    const tick = () => {
      turns++;
      if (!answered) setImmediate(tick);
    };
    setImmediate(tick);
  });
  const nvim = await connectNvim(sock);
  try {
    expect(await nvim.request("a", [])).toBe("here");
    answered = true;
    expect(turns).toBeGreaterThanOrEqual(10);
  } finally {
    nvim.close();
  }
});

test("past the bound, in messages or in bytes, the peer is dropped and the request fails at once", async () => {
  const note = encode([2, "x", []]);
  const big = encode([2, "x", ["y".repeat(300 * 1024)]]);
  for (const flood of [repeated(note, Math.floor((19 * 1024 * 1024) / note.length)), repeated(big, Math.ceil(MAX_UNASKED_BYTES / big.length) + 1)]) {
    const sock = peer((id, _method, write) => {
      write(flood);
      write(reply(id, "too late"));
    });
    const nvim = await connectNvim(sock);
    const began = performance.now();
    await expect(nvim.request("a", [])).rejects.toThrow(`more than ${MAX_UNASKED_MESSAGES} messages or ${MAX_UNASKED_BYTES} bytes ws did not ask for`);
    expect(performance.now() - began).toBeLessThan(4000); // not the 5 s reply deadline
    nvim.close();
  }
});
