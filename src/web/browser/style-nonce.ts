// xterm.js writes its theme and sizes into <style> elements it creates; the page's Content-Security-
// Policy lets in only styles carrying this page's nonce (no 'unsafe-inline'), so each <style> the
// page's scripts create is given it.
export function nonceStyles(): void {
  const nonce = document.querySelector('meta[name="ws-nonce"]')?.getAttribute("content") ?? "";
  const create = document.createElement.bind(document);
  document.createElement = ((tag: string, options?: ElementCreationOptions) => {
    const el = create(tag, options);
    if (tag.toLowerCase() === "style") el.setAttribute("nonce", nonce);
    return el;
  }) as typeof document.createElement;
}
