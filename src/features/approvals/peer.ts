// Who is on the other end of a connection: the peer's pid from the kernel (src/platform/: the
// peer cannot forge it), and whether that process descends from one of ws's panes. The approvals
// guard (docs/security.md "Approvals") uses it so that a program inside a pane can't answer an
// agent's permission request.
import { peerPid, processState } from "../../platform";

/** Parents followed at most: far more than any real process tree is deep. */
const MAX_DEPTH = 256;

/** The pid of the process that connected on `fd` (a Unix socket), or undefined where it can't be
 * read: the platform layer's (SO_PEERCRED on Linux, LOCAL_PEERPID on macOS). */
export { peerPid };

/** Where a process runs: a pane's id; "outside" when its ancestry reaches the top without meeting
 * a pane; "unknown" when it, or a parent, is gone before the walk ends. */
export type Whereabouts = number | "outside" | "unknown";

/**
 * The pane `pid` runs in: a pane's program is a session leader (ws starts it with setsid), so a
 * process in that session, or one whose ancestry reaches a pane's program, is inside it.
 * `panePids` maps a pane's program pid to the pane's id. A process that is gone can't be placed:
 * "unknown", never "outside" (a program in a pane could connect, hand the socket to a child and
 * exit, and its answer would otherwise pass as a person's). Asynchronous: on the portable path
 * each step may run ps, and the daemon does not wait for it.
 */
export async function paneOfProcess(pid: number, panePids: ReadonlyMap<number, number>): Promise<Whereabouts> {
  let p = pid;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (p <= 1) return "outside"; // init, or a parent outside this pid namespace (0)
    const direct = panePids.get(p);
    if (direct !== undefined) return direct;
    const st = await processState(p);
    if (!st) return "unknown";
    const bySession = panePids.get(st.session);
    if (bySession !== undefined) return bySession;
    p = st.ppid;
  }
  return "unknown";
}
