// Where things sit on screen: the area tabs lay their panes out in, each pane's cell, a popup's box,
// and sizing a tab's panes to their cells. Computed from the client size and a tab; nothing here
// changes the model.
import type { Pane } from "./pane";
import type { Tab } from "./workspace";
import { panesOf, paneRects, type Layout, type PaneRect, type Rect } from "./layout";
import { popupRects } from "./popup";
import type { ClientSize } from "./client-size";

/** The screen area tabs lay their panes out in: below the tab bar, above the status line; the
 * whole screen when the bars are off (keys.toml status = "off"). */
export function layoutArea(size: ClientSize, bars = true): Rect {
  if (!bars) return { x: 0, y: 0, cols: Math.max(1, size.cols), rows: Math.max(1, size.rows) };
  return { x: 0, y: 1, cols: Math.max(1, size.cols), rows: Math.max(1, size.rows - 2) };
}

/** Where each pane of a tab sits in `area` (or would, with `layout`). A zoomed pane fills the tab. */
export function tabRects(tab: Tab, area: Rect, layout: Layout = tab.layout): PaneRect[] {
  if (tab.zoomed !== undefined) return [{ pane: tab.zoomed, ...area }];
  return paneRects(layout, area, panesOf(layout).length > 1);
}

/** Where a tab's popup sits in `area`: its box and the part its program sees. */
export function tabPopupRects(tab: Tab, area: Rect): { outer: Rect; inner: Rect } | undefined {
  return tab.popup && popupRects(tab.popup, area);
}

/** Size every pane of a tab (its popup's too) to its cell in `area`. */
export function sizePanes(tab: Tab, area: Rect, panes: ReadonlyMap<number, Pane>): void {
  for (const r of tabRects(tab, area)) panes.get(r.pane)?.resize(r.cols, r.rows);
  const popup = tabPopupRects(tab, area);
  if (popup) panes.get(tab.popup!.pane)?.resize(popup.inner.cols, popup.inner.rows);
}
