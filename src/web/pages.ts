// The pages and every file they load, carried in the binary (bundled when ws is compiled, by
// assets-macro.ts), and the headers each is served with: a strict Content-Security-Policy (scripts
// and styles from this origin only; xterm.js's <style> elements by a per-page nonce), no framing,
// no referrer, nothing cached.
import { browserScript, styleSheet } from "./assets-macro" with { type: "macro" };

interface Asset {
  type: string;
  body: string;
}

export const ASSETS: Record<string, Asset> = {
  "/assets/terminal.js": { type: "text/javascript; charset=utf-8", body: browserScript("terminal.ts") },
  "/assets/phone.js": { type: "text/javascript; charset=utf-8", body: browserScript("phone.ts") },
  "/sw.js": { type: "text/javascript; charset=utf-8", body: browserScript("service-worker.ts") },
  "/assets/xterm.css": { type: "text/css; charset=utf-8", body: styleSheet("@xterm/xterm/css/xterm.css") },
  "/assets/terminal.css": { type: "text/css; charset=utf-8", body: styleSheet("./terminal.css") },
  "/assets/phone.css": { type: "text/css; charset=utf-8", body: styleSheet("./phone.css") },
};

export function securityHeaders(nonce?: string): Record<string, string> {
  return {
    "content-security-policy": `default-src 'none'; script-src 'self'; style-src 'self'${nonce ? ` 'nonce-${nonce}'` : ""}; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-store",
  };
}

const head = (title: string, nonce: string, styles: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="ws-nonce" content="${nonce}"><link rel="icon" href="data:,"><title>${title}</title>${styles.map((s) => `<link rel="stylesheet" href="/assets/${s}">`).join("")}</head>`;

export function terminalPage(nonce: string): string {
  return `${head("ws", nonce, ["xterm.css", "terminal.css"])}<body><div id="status" hidden></div><div id="terminal"></div><script type="module" src="/assets/terminal.js"></script></body></html>`;
}

export function phonePage(nonce: string): string {
  return `${head("ws inbox", nonce, ["phone.css"])}<body><h1>ws</h1><section id="notify"></section><section id="inbox"></section><section id="questions"></section><section id="agents"></section><section id="queue"></section><section id="panes"></section><section id="pane"></section><p><a href="/">Terminal</a></p><script type="module" src="/assets/phone.js"></script></body></html>`;
}

/** A page with one message and no script (logins refused, a missing cookie). */
export function notice(title: string, text: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1><p>${esc(text)}</p></body></html>`;
}
