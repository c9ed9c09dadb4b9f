// Who is on the other end of a connection: the peer's pid from the kernel (src/platform/: the
// peer cannot forge it), and whether that process descends from one of ws's panes. The approvals
// guard (docs/security.md "Approvals") uses it so that a program inside a pane can't answer an
// agent's permission request.
import { peerPid, processStateSync } from "../../platform";

/** Parents followed at most: far more than any real process tree is deep. */
const MAX_DEPTH = 256;

/** The pid of the process that connected on `fd` (a Unix socket), or undefined where it can't be
 * read: the platform layer's (SO_PEERCRED on Linux, LOCAL_PEERPID on macOS). */
export { peerPid };

/**
 * The pane `pid` runs in, if any: a pane's program is a session leader (ws starts it with setsid),
 * so a process in that session, or one whose ancestry reaches a pane's program, is inside it.
 * `panePids` maps a pane's program pid to the pane's id.
 */
export function paneOfProcess(pid: number, panePids: ReadonlyMap<number, number>): number | undefined {
  let p = pid;
  for (let depth = 0; depth < MAX_DEPTH && p > 1; depth++) {
    const direct = panePids.get(p);
    if (direct !== undefined) return direct;
    const st = processStateSync(p);
    if (!st) return undefined;
    const bySession = panePids.get(st.session);
    if (bySession !== undefined) return bySession;
    p = st.ppid;
  }
  return undefined;
}
