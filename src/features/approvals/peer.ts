// Who is on the other end of a connection: the peer's pid from the kernel (src/platform/: the
// peer cannot forge it), and whether that process descends from one of ws's panes. The approvals
// guard (docs/security.md "Approvals") uses it so that a program inside a pane can't answer an
// agent's permission request.
import { peerPid, processState } from "../../platform";
import { WsError } from "../../protocol/errors";
import { hostOs } from "../../platform/os";

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

interface Peer {
  socket?: { fd?: number };
}

/**
 * Why the process on the other end of `connection` may not use a person verb, or undefined when it
 * may: it runs inside a ws pane, or it (or a parent) was gone before the server could tell, or (on
 * Linux, where the kernel always knows) its pid can't be read. An extra layer under grants: a pane's
 * own socket never carries person verbs at all; this is for the main socket.
 */
export async function personRefusal(connection: unknown, panes: ReadonlyMap<number, { pid: number; exited: unknown }>, verb: string): Promise<WsError | undefined> {
  const pid = peerPid((connection as Peer | undefined)?.socket?.fd);
  const hint = { grant: "person" };
  if (pid === undefined) return hostOs === "linux" ? new WsError(`refused: ${verb} is the person's, and the server could not tell which process sent it`, "forbidden", hint) : undefined;
  const panePids = new Map([...panes].filter(([, pane]) => !pane.exited).map(([id, pane]) => [pane.pid, id]));
  const inside = await paneOfProcess(pid, panePids);
  if (inside === "unknown")
    return new WsError(`refused: ${verb} is the person's, and the process that sent it (pid ${pid}), or a parent of it, was gone before the server could tell whether it runs inside ws; send it from a process that waits for its reply`, "forbidden", hint);
  if (inside !== "outside") return new WsError(`refused: ${verb} is the person's, and this comes from a process inside ws pane ${inside}; send it from the attached client or a terminal outside ws`, "forbidden", hint);
  return undefined;
}
