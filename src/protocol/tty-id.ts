/** How a client and the server tell they opened the same terminal (attach's `tty_id`): the device
 * of the filesystem its node is on and the terminal's own device number, from fstat. */
export function ttyId(st: { dev: number | bigint; rdev: number | bigint }): string {
  return `${st.dev}:${st.rdev}`;
}
