// The one rule for names a client gives ws: workspaces, tabs, projects, pane labels. A name is
// shown on screen, put in panes' environment (WS_WORKSPACE) and saved, so it may hold no
// character that could break any of those: no NUL or other control character, nothing that
// reorders text on screen, no unpaired surrogate. Pure: the protocol schema, the session and
// restore all check with it.

import { charClass } from "../safe-text";
import { WsError } from "./errors";

/** The most characters (code points) a name may have. */
export const NAME_MAX_LENGTH = 128;

/** C0 and C1 controls (NUL, ESC, newline, tab, DEL, …), the bidi embedding/override (U+202A–U+202E)
 * and isolate (U+2066–U+2069) controls, and the line and paragraph separators (U+2028, U+2029). */
const forbidden = () => charClass(["c0", "del", "c1", "lineSeparators", "bidiEmbeddings", "bidiIsolates"]);

/** What is wrong with a name, as a phrase that follows it ("… is empty"), or undefined if it is fine. */
export function nameProblem(name: string): string | undefined {
  if (!name.trim()) return "is empty";
  const length = [...name].length;
  if (length > NAME_MAX_LENGTH) return `is ${length} characters long (at most ${NAME_MAX_LENGTH})`;
  const bad = forbidden().exec(name);
  if (bad) return `holds the control character U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")} (names may not hold control or bidi-override characters)`;
  if (!name.isWellFormed()) return "holds an unpaired surrogate (it is not valid Unicode text)";
  return undefined;
}

/** Refuse a name that breaks the rule, as invalid_params naming `param` (the protocol's schema
 * checks names too; this holds for the UI's prompts and every other caller of the model). */
export function checkName(param: string, name: string): void {
  const problem = nameProblem(name);
  if (problem) throw new WsError(`invalid name in \`${param}\`: it ${problem}`, "invalid_params", { param });
}

export function isValidName(name: string): boolean {
  return nameProblem(name) === undefined;
}

/** What is wrong with a name that also names a directory or file (a workstream, a review, a
 * template), or undefined: the name rule above, and it must stay one path component that no
 * program reads as an option: no `/`, no `..` (nor `.` alone), no leading `-`. */
export function pathNameProblem(name: string): string | undefined {
  const problem = nameProblem(name);
  if (problem) return problem;
  if (name.includes("/")) return "holds a / (it names a directory, and must stay one)";
  if (name.includes("..") || name === ".") return 'holds ".." or is "." (it names a directory, and must stay inside its parent)';
  if (name.startsWith("-")) return "starts with - (a program would read it as an option)";
  return undefined;
}

/** What is wrong with a server's name (`-L NAME`), or undefined: the rule above, and only ASCII
 * letters, digits, `.`, `_` and `-`, as it names the server's socket file and travels to other
 * machines in an ssh command line (`ws -H HOST -L NAME`). */
export function serverNameProblem(name: string): string | undefined {
  const problem = pathNameProblem(name);
  if (problem) return problem;
  const bad = /[^A-Za-z0-9._-]/.exec(name);
  if (bad) return `holds ${JSON.stringify(bad[0])} (a server's name is ASCII letters, digits, . _ and -: it names its socket file)`;
  return undefined;
}
