// vttest driven through its menus the same way in two terminals (a ws pane, a tmux pane), page by
// page: each page's text is kept so the two can be compared (test/vttest.integration.test.ts,
// docs/fidelity.md). A page is read once it asks for input (its Return prompt or a menu's) and the
// screen held still over one poll; a page that asks nothing, once it stayed the same for settleMs.

export interface Screen {
  /** Type text (keys as bytes). */
  send(text: string): Promise<void>;
  /** The screen's text now (80×24). */
  read(): Promise<string>;
}

export interface Page {
  /** Where it was: the menu choices that led to it, and its number on that path. */
  at: string;
  text: string;
  /** The screen never settled, or the path never got back to its menu. */
  stuck?: boolean;
}

const MENU = /Enter choice number \(0 - (\d+)\)/;
/** vttest is done drawing a page: it waits for Return, or for a menu choice. */
const ASKS = /Push <RETURN>|Enter choice number \(0 - \d+\)/;
/** Sub-menu items not driven: they wait for typed keys or mouse input, not pages to Return through. */
const SKIP: Record<string, number[]> = {
  "11": [8], // XTERM special features: mouse and window tests wait for the mouse or a window manager
  "11.1": [], "11.2": [], "11.3": [], "11.4": [],
};

export class VttestDriver {
  readonly pages: Page[] = [];
  constructor(
    private readonly t: Screen,
    private readonly o: { settleMs: number; pollMs: number; pageTimeoutMs: number; maxPages: number; maxDepth: number },
  ) {}

  /** The screen once it asks for input and held still over one poll, or else once it has stayed
   * the same for settleMs (stuck: it kept changing). */
  async settled(): Promise<{ text: string; stuck: boolean }> {
    const end = Date.now() + this.o.pageTimeoutMs;
    let last = await this.t.read();
    let since = Date.now();
    while (Date.now() < end) {
      await Bun.sleep(this.o.pollMs);
      const now = await this.t.read();
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (ASKS.test(now) || Date.now() - since >= this.o.settleMs) return { text: last, stuck: false };
    }
    return { text: last, stuck: true };
  }

  /** Run menu item `item` of the menu now on screen (`menuText`) and everything under it. */
  async item(path: string[], item: number, menuText: string): Promise<void> {
    const at = [...path, String(item)];
    await this.t.send(`${item}\r`);
    for (let n = 1; n <= this.o.maxPages; n++) {
      const page = await this.settled();
      const menu = MENU.exec(page.text);
      if (menu && page.text === menuText) return; // back where it started
      this.pages.push({ at: `${at.join(".")}#${n}`, text: page.text, ...(page.stuck ? { stuck: true } : {}) });
      if (page.stuck) return;
      if (menu) {
        // A sub-menu: each of its items (within the depth), then 0 leaves it.
        if (at.length < this.o.maxDepth) {
          const skip = SKIP[at.join(".")] ?? [];
          for (let i = 1; i <= Number(menu[1]); i++) if (!skip.includes(i)) await this.item(at, i, page.text);
        }
        await this.t.send("0\r");
        continue;
      }
      await this.t.send("\r");
    }
    this.pages.push({ at: `${at.join(".")}#end`, text: "", stuck: true });
  }

  async run(items: number[]): Promise<Page[]> {
    const top = await this.settled();
    this.pages.push({ at: "menu", text: top.text, ...(top.stuck ? { stuck: true } : {}) });
    for (const i of items) await this.item([], i, top.text);
    return this.pages;
  }
}

/** Lines that differ between two pages' texts (trailing blanks ignored), as "row: a | b". */
export function pageDiff(a: string, b: string): string[] {
  const la = a.split("\n").map((l) => l.trimEnd());
  const lb = b.split("\n").map((l) => l.trimEnd());
  while (la.length && la[la.length - 1] === "") la.pop();
  while (lb.length && lb[lb.length - 1] === "") lb.pop();
  const out: string[] = [];
  for (let i = 0; i < Math.max(la.length, lb.length); i++) if ((la[i] ?? "") !== (lb[i] ?? "")) out.push(`${i + 1}: ${JSON.stringify(la[i] ?? "")} | ${JSON.stringify(lb[i] ?? "")}`);
  return out;
}
