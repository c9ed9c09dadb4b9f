// How a client names its terminal in attach's `tty`/`tty_id` (docs/attach.md), for the server to
// drive it: the client and the server check the same facts.

/** A terminal device path the server may open: /dev/pts/N or /dev/ttyNAME. */
export function isTerminalPath(path: string): boolean {
  return /^\/dev\/(pts\/\d{1,7}|tty[A-Za-z0-9]{0,8})$/.test(path);
}

/** How a client and the server tell they opened the same terminal (attach's `tty_id`): the device
 * of the filesystem its node is on and the terminal's own device number, from fstat. */
export function ttyId(st: { dev: number | bigint; rdev: number | bigint }): string {
  return `${st.dev}:${st.rdev}`;
}
