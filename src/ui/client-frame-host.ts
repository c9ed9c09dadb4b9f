// What one attached client's frames are drawn from: the session everyone shares, and that
// client's own state (prompt, overlay, copy mode, notices), its size and its terminal's modes.
import type { ClientView } from "./client-lifecycle";
import type { UiView } from "./compositor";
import type { FrameHost } from "./frame-scheduler";
import type { Interface } from "./interface";
import { clampClientSize } from "../model/client-size";

/** What a client's frames are drawn from: the session, and that client's own state. */
export function clientFrameHost(ui: Interface, v: ClientView): FrameHost {
  const st = v.state;
  // Every field of UiView is named here, so one added there is a compile error until it is passed on.
  const host: FrameHost & { [K in keyof Required<UiView>]: UiView[K] } = {
    session: ui.session,
    get client() {
      return v.client;
    },
    popup: () => ui.popup(),
    focusedPane: () => ui.focusedPane(),
    // Focus reports follow the pane with the keys, for the client that types.
    framing: (focused) => {
      if (ui.clients.latest === v) ui.clients.paneFocus.sync(focused);
    },
    frameLead: (focused, visible) => v.outerModes.update(focused?.emulator.modes, ui.keymap.mouse !== false) + v.passthrough.take(focused, visible),
    // The latest active client is the session's size (clamped as the session clamps it).
    clientSize: () => (ui.clients.latest === v ? ui.session.size : clampClientSize(v.cols, v.rows)),
    placed: (offset) => {
      v.fitted = offset !== undefined;
      v.offset = offset ?? { x: 0, y: 0 };
    },
    get prefixPending() {
      return st.prefixPending;
    },
    get prompt() {
      return st.prompt;
    },
    get overlay() {
      return st.overlay;
    },
    get copy() {
      return st.copy;
    },
    get message() {
      return st.message;
    },
    get paneNumbers() {
      return st.paneNumbers;
    },
    get baseIndex() {
      return ui.baseIndex;
    },
    tabNumber: (i) => ui.tabNumber(i),
    get statusStyle() {
      return ui.statusStyle;
    },
    tabBadge: (panes) => ui.tabBadge?.(panes),
    statusBadge: () => ui.statusBadge?.(),
    bellMark: (panes) => ui.clients.marked(panes),
    statusParts: () => ui.statusParts(),
  };
  return host;
}
