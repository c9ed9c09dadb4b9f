// ws web in a real Chromium (Debian's, driven by playwright-core): log in with the printed URL, the
// shell in the browser (prompt, a command's output, resize, paste, Ctrl-C and Up), a strict CSP
// and nothing loaded from another origin, the phone page (at a phone's size: an agent's status, the
// queue, an approval answered while a terminal client stays attached), and the refusals: no
// cookie, a wrong Origin, a used token, too many logins, a revoked session. Screenshots of both
// pages are kept under test-artifacts/web/ (git ignores it).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { type Conn, ROOT, TestServer, waitFor, wsArgv } from "./harness";
import { RawAttach } from "./raw-attach";
import { CHROMIUM, needChromium, startWeb } from "./web-rig";

const ARTIFACTS = join(ROOT, "test-artifacts", "web");

const s = new TestServer();
let web: ReturnType<typeof Bun.spawn>;
let base = "";
let loginUrl = "";
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cookie = "";
const cspViolations: string[] = [];
/** Every URL the browser asked for: all must be ws web's own (no third-party origin). */
const requested: string[] = [];

/** What the terminal page's xterm.js holds, whichever renderer draws it. */
const screenText = (p: Page) =>
  p.evaluate(() => {
    const b = (window as unknown as { wsTerminal: { buffer: { active: { length: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined } } } }).wsTerminal.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < b.length; i++) lines.push(b.getLine(i)?.translateToString(true) ?? "");
    return lines.join("\n");
  });
const waitScreen = (p: Page, text: string | RegExp) =>
  waitFor(`the browser's terminal to show ${text}`, async () => {
    const screen = await screenText(p);
    return typeof text === "string" ? screen.includes(text) : text.test(screen);
  }, 15000);
type Client = { cols: number; rows: number };
const clients = async () => (await s.request<{ clients: Client[] }>({ v: 6, type: "attach_clients" })).clients;

/** A WebSocket to the attach endpoint with these headers: whether it opened. */
function tryAttach(headers: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace("http", "ws")}/attach?cols=80&rows=24`, { headers } as unknown as string[]);
    ws.onopen = () => {
      ws.close();
      resolve(true);
    };
    ws.onerror = () => resolve(false);
    ws.onclose = () => resolve(false);
  });
}

beforeAll(async () => {
  needChromium();
  await s.start();
  const running = await startWeb(s);
  web = running.proc;
  loginUrl = running.loginUrl;
  base = running.base;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  context = await browser.newContext({ viewport: { width: 900, height: 500 } });
  context.on("request", (r) => void requested.push(r.url()));
  page = await context.newPage();
  page.on("console", (m) => {
    if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  console.log(`ws web screenshots: ${ARTIFACTS}`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  web?.kill();
  await web?.exited;
  await s.stop();
}, 30_000);

describe("ws web", () => {
  test("refuses every page without the session cookie", async () => {
    for (const path of ["/", "/phone", "/api/state", "/assets/terminal.js"]) expect((await fetch(base + path)).status).toBe(401);
    expect(await tryAttach({ Origin: base })).toBe(false);
  });

  test("logs in with the printed URL and shows the shell: a command's output, resize, paste", async () => {
    await page.goto(loginUrl);
    expect(new URL(page.url()).pathname).toBe("/");
    const c = (await context.cookies()).find((k) => k.name === "ws_session")!;
    expect(c.httpOnly).toBe(true);
    expect(c.sameSite).toBe("Strict");
    cookie = `${c.name}=${c.value}`;
    await page.waitForFunction(() => document.body.dataset.attached === "true");
    // The shell's prompt (bash's, whatever the system's bashrc makes it; trailing blanks are trimmed).
    await waitScreen(page, /^\S.*[$#]$/m);

    await page.keyboard.type("echo web-$((6*7))\n");
    await waitScreen(page, "web-42");

    // The browser's size reaches the server as this client's (the latest active one's).
    const before = await page.evaluate(() => (window as unknown as { wsTerminal: { cols: number } }).wsTerminal.cols);
    await page.setViewportSize({ width: 600, height: 400 });
    const after = await waitFor("xterm.js to fit the smaller window", async () => {
      const cols = await page.evaluate(() => (window as unknown as { wsTerminal: { cols: number; rows: number } }).wsTerminal.cols);
      return cols < before ? cols : undefined;
    });
    await waitFor(`the server to see a ${after}-column client`, async () => (await clients()).some((k) => k.cols === after));

    // A paste, as the browser delivers one: xterm.js sends it bracketed, the server types it in.
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData("text/plain", "echo pasted-$((2+3))");
      document.querySelector(".xterm-helper-textarea")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await page.keyboard.press("Enter");
    await waitScreen(page, "pasted-5");

    // Keys as in a terminal: Ctrl-C interrupts the foreground program, Up recalls the last line.
    await page.keyboard.type("sleep 600\n");
    const foreground = async () => ((await s.request<{ panes: { pane: number; command: string[] }[] }>({ v: 6, type: "pane_list" })).panes.find((p) => p.pane === 1)?.command ?? []).join(" ");
    await waitFor("sleep to run in the foreground", async () => (await foreground()) === "sleep 600");
    await page.keyboard.press("Control+C");
    await waitFor("Ctrl-C to end sleep", async () => (await foreground()) !== "sleep 600");
    await page.keyboard.type("echo after-$((1+1))\n");
    await waitScreen(page, /^after-2$/m);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await waitFor("Up and Enter to run the last line again", async () => ((await screenText(page)).match(/^after-2$/gm) ?? []).length === 2);
    await page.screenshot({ path: join(ARTIFACTS, "terminal.png") });
    expect(cspViolations).toEqual([]);
  });

  test("each page has a strict Content-Security-Policy, and the browser loaded nothing from another origin", async () => {
    for (const path of ["/", "/phone"]) {
      const r = await fetch(base + path, { headers: { Cookie: cookie } });
      expect(r.status).toBe(200);
      const csp = new Map((r.headers.get("content-security-policy") ?? "").split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v] as const));
      expect(csp.get("default-src")).toEqual(["'none'"]);
      expect(csp.get("script-src")).toEqual(["'self'"]);
      expect(csp.get("connect-src")).toEqual(["'self'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("style-src")!.filter((s) => !s.startsWith("'nonce-"))).toEqual(["'self'"]);
    }
    // An inline script (what an injected string would be) does not run.
    const probe = await context.newPage();
    await probe.goto(`${base}/phone`);
    const ran = await probe.evaluate(() => {
      const el = document.createElement("script");
      el.textContent = "window.wsInlineRan = true";
      document.body.append(el);
      return (window as unknown as { wsInlineRan?: boolean }).wsInlineRan === true;
    });
    expect(ran).toBe(false);
    await probe.close();
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((u) => !u.startsWith("data:") && new URL(u).origin !== base)).toEqual([]);
  });

  test("WebGL draws where the browser has it (asked for here: headless Chromium's GL is software, which the page leaves to the DOM)", async () => {
    const gl = await context.newPage();
    await gl.goto(`${base}/?renderer=webgl`);
    await gl.waitForFunction(() => document.body.dataset.attached === "true");
    expect(await gl.evaluate(() => document.body.dataset.renderer)).toBe("webgl");
    expect(await gl.locator("#terminal canvas").count()).toBeGreaterThan(0);
    await waitScreen(gl, "web-42");
    await gl.close();
    await waitFor("the WebGL page's client to go", async () => (await clients()).filter((c) => (c as Client & { term?: string }).term === "xterm-256color").length === 1);
  });

  test("a used login token is refused", async () => {
    const r = await fetch(loginUrl, { redirect: "manual" });
    expect(r.status).toBe(403);
    expect(r.headers.get("set-cookie")).toBeNull();
  });

  test("a WebSocket or an answer from another Origin is refused, even with the cookie", async () => {
    expect(cookie).not.toBe("");
    expect(await tryAttach({ Cookie: cookie, Origin: "http://evil.example" })).toBe(false);
    expect(await tryAttach({ Cookie: cookie })).toBe(false);
    expect(await tryAttach({ Cookie: cookie, Origin: base })).toBe(true);
    // A DNS-rebinding page reaches this port under its own name: refused on loopback.
    const port = new URL(base).port;
    const rebound = await fetch(`${base}/api/state`, { headers: { Cookie: cookie, Host: `evil.example:${port}` } });
    expect(rebound.status).toBe(421);
    const r = await fetch(`${base}/api/approval`, { method: "POST", headers: { Cookie: cookie, Origin: "http://evil.example", "content-type": "application/json" }, body: JSON.stringify({ approval: 1, behavior: "allow" }) });
    expect(r.status).toBe(403);
  });

  test("the phone page approves a waiting request, shown as text, while a terminal client stays attached", async () => {
    const terminal = await RawAttach.open(s.sock, { v: 6, type: "attach", share: true, cols: 100, rows: 30 });
    await terminal.firstFrame();
    const pane = (await s.list())[0]!.tabs[0]!.panes[0]!;
    const evil = `<img src=x onerror="document.title='owned'"> rm -rf build`;
    const asker: Conn = await s.connect();
    asker.send({ v: 6, id: 7, type: "approval_request", pane, agent: "claude", payload: { tool_name: "Bash", tool_input: { command: evil } }, timeout: 60000 });
    // An agent at work in another workspace, with a prompt queued for when it is idle.
    await s.v6({ type: "workspace_new", name: "agents" });
    const agentPane = (await s.call({ type: "tab_new", workspace: "agents", name: "claude", cwd: s.root, command: ["sleep", "600"] })).pane as number;
    await s.v6({ type: "report", pane: agentPane, agent: "claude", event: "UserPromptSubmit", payload: {} });
    await s.ok(["agent", "send", "--to", String(agentPane), "--when", "idle", "then run the tests"]);
    // The page at a phone's size.
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${base}/phone`);
    const agentRow = phone.locator(`button.agent[data-pane="${agentPane}"]`);
    await agentRow.waitFor({ timeout: 15000 });
    expect(await agentRow.locator(".status").textContent()).toBe("working");
    expect(await agentRow.textContent()).toContain("agents/claude");
    expect(await phone.locator(".prompt").first().textContent()).toContain(`pane ${agentPane} #1 (when idle): then run the tests`);
    const item = phone.locator(".approval").first();
    await item.waitFor({ timeout: 15000 });
    expect(await item.locator("pre.summary").textContent()).toBe(evil);
    expect(await phone.locator(".approval img").count()).toBe(0);
    // A pane's screen, read-only: the command typed in the terminal page.
    await phone.locator(`button.pane[data-pane="${pane}"]`).click();
    await waitFor("the phone page to show the pane's screen", async () => (await phone.locator("pre.screen").textContent())?.includes("web-42"));
    await phone.screenshot({ path: join(ARTIFACTS, "phone.png"), fullPage: true });
    await item.locator("button.approve").click();
    const decision = await asker.nextJson(30000);
    expect(decision).toMatchObject({ type: "approval_decision", behavior: "allow", by: "web" });
    await phone.locator(".answered").waitFor();
    // The next poll no longer lists the request; the page still says it was approved.
    await waitFor("the poll's redraw", async () => (await phone.locator("#inbox h2").textContent()) === "Inbox (0)");
    expect(await phone.locator(".approval .answered").textContent()).toBe("Approved");
    expect(await phone.title()).not.toBe("owned");
    // The terminal client was never disturbed: still attached, no EXIT.
    expect(terminal.closed).toBe(false);
    expect(terminal.exit).toBeUndefined();
    expect((await clients()).length).toBeGreaterThanOrEqual(2);
    terminal.close();
    asker.close();
    await phone.close();
    expect(cspViolations).toEqual([]);
  });

  test("the mouse focuses a pane it clicks, and a detach ends the page's attach until Enter", async () => {
    const second = Number((await s.ok(["split", "1"])).trim().match(/\d+/)![0]);
    const focused = async () => ((await s.request<{ panes: { pane: number; focused: boolean }[] }>({ v: 6, type: "pane_list" })).panes.find((p) => p.focused) ?? { pane: -1 }).pane;
    if ((await focused()) === second) await s.ok(["pane", "focus", "1"]);
    await waitFor("pane 1 focused", async () => (await focused()) === 1);
    // The new pane holds the bottom-right quarter whichever way it split.
    const box = (await page.locator("#terminal").boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height * 0.75);
    await waitFor(`a click to focus pane ${second}`, async () => (await focused()) === second);

    const web = (await clients()).find((c) => (c as Client & { term?: string }).term === "xterm-256color") as (Client & { id: number }) | undefined;
    expect(web).toBeDefined();
    await s.ok(["client", "detach", String(web!.id)]);
    await page.waitForFunction(() => document.body.dataset.attached === "false");
    expect(await page.locator("#status").textContent()).toMatch(/detached/);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.body.dataset.attached === "true");
    await waitFor("the page attached again", async () => (await clients()).some((c) => (c as Client & { term?: string }).term === "xterm-256color"));
  });

  test("ws web tokens lists the session and revokes it: the cookie stops working and the attach ends", async () => {
    const listed = JSON.parse(await s.ok(["--json", "web", "tokens"])) as { sessions: { id: string; agent: string }[] };
    expect(listed.sessions.length).toBe(1);
    expect(listed.sessions[0]!.agent).toMatch(/Chrome/);
    await s.ok(["web", "tokens", "--revoke", listed.sessions[0]!.id]);
    expect((await fetch(`${base}/api/state`, { headers: { Cookie: cookie } })).status).toBe(401);
    await page.waitForFunction(() => document.body.dataset.attached === "false", null, { timeout: 10000 });
    // Another login URL for the running ws web works once.
    const again = (await s.ok(["web", "tokens", "--new"])).trim();
    expect(again).toStartWith(`${base}/login?token=`);
    expect((await fetch(again, { redirect: "manual" })).status).toBe(303);
  });

  test("a program in a pane can't make a login URL (ws web tokens --new), not even naming the main socket", async () => {
    const loginsWaiting = async () => (JSON.parse(await s.ok(["--json", "web", "tokens"])) as { logins_waiting: number }).logins_waiting;
    const before = await loginsWaiting();
    await s.v6({ type: "workspace_new", name: "rogue" });
    const pane = (await s.call({ type: "tab_new", workspace: "rogue", name: "rogue", cwd: s.root })).pane as number;
    await s.waitScreen(pane, /\S/, 20000);
    const ws = wsArgv().join(" ");
    const tries = [`${ws} web tokens --new`, `WS_SOCKET=${s.sock} ${ws} web tokens --new`, `env -u WS_PANE_ID -u WS_PANE_KEY WS_SOCKET=${s.sock} ${ws} web tokens --new`];
    for (const [i, command] of tries.entries()) {
      await s.v6({ type: "pane_send", pane, text: `clear; ${command}; echo "try${i}=$?"`, enter: true });
      const screen = (await s.waitScreen(pane, new RegExp(`try${i}=\\d+`), 30000)).replaceAll("\n", "");
      expect(screen).not.toContain("/login?token=");
      expect(screen).toContain("makes a login for the person, and this runs inside a ws pane");
      expect(screen).toMatch(new RegExp(`try${i}=[1-9]`));
    }
    expect(await loginsWaiting()).toBe(before);
  }, 60_000);

  test("login attempts are rate-limited", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await fetch(`${base}/login?token=wrong${i}`, { redirect: "manual" })).status);
    expect(statuses).toContain(429);
    expect(statuses.slice(statuses.indexOf(429))).toEqual(statuses.slice(statuses.indexOf(429)).map(() => 429));
  });
});

describe("ws web's addresses", () => {
  test("an address other than loopback is refused without TLS, and served with it: https, a Secure __Host- cookie", async () => {
    const t = new TestServer();
    try {
      const plain = await t.run(["web", "--listen", "0.0.0.0:0"]);
      expect(plain.code).toBe(2);
      expect(plain.stderr).toMatch(/without TLS.*--tls-cert/);
      const key = join(t.root, "key.pem");
      const cert = join(t.root, "cert.pem");
      const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"], { stderr: "pipe" });
      expect(made.exitCode).toBe(0);
      await t.start();
      const tls = await startWeb(t, ["--tls-cert", cert, "--tls-key", key]);
      try {
        expect(tls.loginUrl).toStartWith("https://");
        const r = await fetch(tls.loginUrl, { redirect: "manual", tls: { rejectUnauthorized: false } } as RequestInit);
        expect(r.status).toBe(303);
        expect(r.headers.get("set-cookie")).toMatch(/^__Host-ws_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
      } finally {
        await tls.stop();
      }
    } finally {
      await t.stop();
    }
  }, 30_000);
});
