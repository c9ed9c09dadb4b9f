// A typed key's echo read in the turn that wrote the key (Pty.readNow, ws's own PTY): readNow
// returns the echo, which the stream then does not deliver again; an echo held back (holdBack)
// comes a moment later, before anything read after it; and a program that does not answer in time
// is not waited for again until it answers a key quickly.
import { afterEach, expect, test } from "bun:test";
import { nativePtyAvailable, spawnNativePty } from "../src/model/pty-native";
import type { Pty } from "../src/model/pty";
import { waitFor } from "./harness";

const native = nativePtyAvailable() ? test : test.skip;
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };
const started: Pty[] = [];
afterEach(async () => {
  for (const p of started.splice(0)) {
    p.kill("SIGKILL");
    p.close();
    await p.exited;
  }
});

/** `script` in sh on a raw, non-echoing PTY; it prints READY first. */
function start(script: string) {
  let text = "";
  const pty = spawnNativePty({
    argv: ["sh", "-c", `stty raw -echo; printf READY; ${script}`],
    cwd: "/tmp",
    env,
    cols: 80,
    rows: 24,
    onData: (b) => {
      text += Buffer.from(b).toString("latin1");
    },
    onExit: () => {},
  });
  started.push(pty);
  return { pty, text: () => text };
}

const str = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString("latin1") : b);

native("readNow returns a key's echo, which the stream does not deliver again", async () => {
  const { pty, text } = start("exec cat");
  await waitFor("the program to start", () => text() === "READY");
  pty.write("a");
  expect(str(pty.readNow!(2000))).toBe("a");
  // The next key's echo comes through the stream (and only it), the one after through readNow again.
  pty.write("b");
  await waitFor("b's echo through the stream", () => text() === "READYb");
  pty.write("c");
  expect(str(pty.readNow!(2000))).toBe("c");
  pty.write("d");
  await waitFor("d's echo through the stream", () => text() === "READYbd");
});

native("nothing is waited for without a write just before", async () => {
  const { pty, text } = start("exec cat");
  await waitFor("the program to start", () => text() === "READY");
  const t0 = performance.now();
  expect(pty.readNow!(300)).toBeUndefined();
  expect(performance.now() - t0).toBeLessThan(150);
});

native("a program that answers slowly is not waited for again until it answers a key in time", async () => {
  // The first key gets no echo at all; every key after it is echoed at once.
  const { pty, text } = start("head -c 1 >/dev/null; exec cat");
  await waitFor("the program to start", () => text() === "READY");
  pty.write("k");
  let t0 = performance.now();
  expect(pty.readNow!(200)).toBeUndefined();
  expect(performance.now() - t0).toBeGreaterThanOrEqual(150);
  // Slow last time: this key is not waited for, though its echo comes quickly.
  pty.write("x");
  t0 = performance.now();
  expect(pty.readNow!(200)).toBeUndefined();
  expect(performance.now() - t0).toBeLessThan(100);
  await waitFor("x's echo through the stream", () => text() === "READYx");
  // It answered that key within the wait: the next key's echo is waited for again.
  pty.write("y");
  expect(str(pty.readNow!(2000))).toBe("y");
});

native("an echo held back is delivered a moment later, ahead of anything read after it", async () => {
  const { pty, text } = start("exec cat");
  await waitFor("the program to start", () => text() === "READY");
  pty.write("a");
  pty.holdBack!(pty.readNow!(2000)!);
  expect(text()).toBe("READY");
  // b's echo comes through the stream, most often before the held a is due: a still comes first.
  pty.write("b");
  await waitFor("both echoes, in order", () => text() === "READYab");
  // Held and not followed by anything: delivered once its moment is up.
  pty.write("c");
  pty.holdBack!(pty.readNow!(2000)!);
  await waitFor("c's echo", () => text() === "READYabc");
  // A held echo is delivered before readNow reads the next one (the caller parses that one at once).
  pty.write("d");
  pty.holdBack!(pty.readNow!(2000)!);
  pty.write("e");
  expect(str(pty.readNow!(2000))).toBe("e");
  expect(text()).toBe("READYabcd");
});
