// Quoting a word for a shell, for the few places ws writes script text itself (the shell
// integration's start-up lines, the shim's `tmux` script, completion scripts, the agents' hook
// lines). Data never goes through these to be run: ws spawns argv arrays. Here, at the base of
// src/, so every layer can use the one quoter.

/** `s` as one single-quoted word for sh, bash and zsh (none of them expands inside). Not for
 * fish, which reads `\\` and `\'` inside single quotes: quoteFish. */
export function quoteSh(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `s` as one single-quoted word for fish: its only escapes inside are `\\` and `\'`. */
export function quoteFish(s: string): string {
  return `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** Characters a word may hold and stay bare (no quotes) in every shell. */
const BARE_WORD = /^[\w@%+=:,./-]+$/;

/** `s` as one word for sh: as it is when it needs no quotes, else single-quoted (readable lines). */
export function shellWord(s: string): string {
  return BARE_WORD.test(s) ? s : quoteSh(s);
}
