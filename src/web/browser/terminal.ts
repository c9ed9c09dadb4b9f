// The terminal page: xterm.js attached to the session over a WebSocket that carries the terminal's
// bytes both ways (binary messages) and its size (a JSON text message). The ws web process turns the
// bytes into the attach stream's events, as `ws attach` does with a terminal's.
import { FitAddon } from "@xterm/addon-fit";
import { WebglAddon } from "@xterm/addon-webgl";
import { Terminal } from "@xterm/xterm";
import { nonceStyles } from "./style-nonce";

nonceStyles();
const status = document.getElementById("status")!;
const term = new Terminal({ allowProposedApi: true, cursorBlink: true, fontFamily: "monospace", scrollback: 0 });
const fit = new FitAddon();
term.loadAddon(fit);
term.open(document.getElementById("terminal")!);
/** Whether WebGL here is the GPU's: a software GL (SwiftShader, llvmpipe; a headless or GPU-less
 * browser) draws slower than the DOM renderer (first paint ~1.6 s against ~0.5 s in headless
 * Chromium), so it is not used. `?renderer=webgl` or `?renderer=dom` decides instead. */
function gpuWebgl(): boolean {
  const asked = new URLSearchParams(location.search).get("renderer");
  if (asked) return asked === "webgl";
  const gl = document.createElement("canvas").getContext("webgl2");
  if (!gl) return false;
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension("WEBGL_lose_context")?.loseContext();
  return !/swiftshader|llvmpipe|softpipe|software/i.test(renderer);
}

document.body.dataset.renderer = "dom";
if (gpuWebgl()) {
  try {
    const webgl = new WebglAddon();
    webgl.onContextLoss(() => webgl.dispose());
    term.loadAddon(webgl);
    document.body.dataset.renderer = "webgl";
  } catch {
    // WebGL failed after all: xterm.js draws with the DOM.
  }
}
fit.fit();
performance.mark("ws-terminal-ready");
// What tests and the person's console read (the screen, whatever renders it).
(window as unknown as { wsTerminal: Terminal }).wsTerminal = term;

const encoder = new TextEncoder();
let socket: WebSocket | undefined;

function say(text: string): void {
  status.textContent = text;
  status.hidden = text === "";
}

function connect(): void {
  say("");
  const url = new URL("attach", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.search = `?cols=${term.cols}&rows=${term.rows}`;
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  socket = ws;
  ws.onopen = () => {
    performance.mark("ws-open");
    document.body.dataset.attached = "true";
    term.focus();
  };
  ws.onmessage = (m) => {
    // The bench's first paint reads these marks (bench/web-echo.ts).
    if (!performance.getEntriesByName("ws-first-output").length) performance.mark("ws-first-output");
    if (typeof m.data !== "string") return term.write(new Uint8Array(m.data as ArrayBuffer));
    const notice = JSON.parse(m.data) as { exit?: string };
    if (notice.exit !== undefined) say(`${notice.exit} — press Enter to attach again`);
  };
  ws.onclose = () => {
    document.body.dataset.attached = "false";
    socket = undefined;
    if (status.hidden) say("disconnected — press Enter to attach again");
  };
}

term.onData((d) => {
  if (socket?.readyState === WebSocket.OPEN) socket.send(encoder.encode(d));
  else if (!socket && (d === "\r" || d === "\n")) {
    term.reset();
    connect();
  }
});
// Mouse reports in the legacy encoding: bytes, not UTF-8.
term.onBinary((d) => {
  if (socket?.readyState === WebSocket.OPEN) socket.send(Uint8Array.from(d, (c) => c.charCodeAt(0) & 0xff));
});
term.onResize(({ cols, rows }) => {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ resize: [cols, rows] }));
});
new ResizeObserver(() => fit.fit()).observe(document.getElementById("terminal")!);
connect();
