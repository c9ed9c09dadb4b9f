// ws.1, the man page: made from the same command table and global flags as --help and the shell
// completions, so the three never disagree. `ws help --man` prints it (the installers write it
// to PREFIX/share/man/man1/ws.1); scripts/man-page.ts writes docs/ws.1 from this function.
import type { Command } from "../cli-table/spec";
import { globalItems, paramItems, usageLine } from "./help";

/** Text for roff: backslashes and dashes escaped, and no line that starts as a request would. */
export function roff(text: string): string {
  return text
    .replace(/\\/g, "\\e")
    .replace(/-/g, "\\-")
    .replace(/…/g, "...")
    .replace(/^([.'])/gm, "\\&$1");
}

const bold = (text: string) => `\\fB${roff(text)}\\fR`;

/** A flag or argument as the man page lists it: flags bold, their values italic. */
function term(text: string): string {
  return text
    .split(", ")
    .map((t) => {
      const [name, ...rest] = t.split(" ");
      return name!.startsWith("-") ? `${bold(name!)}${rest.length ? ` \\fI${roff(rest.join(" "))}\\fR` : ""}` : `\\fI${roff(t)}\\fR`;
    })
    .join(", ");
}

function items(list: [string, string][]): string[] {
  return list.flatMap(([a, b]) => [".TP", term(a), roff(b)]);
}

/** The man page, roff (man(7)) source. `version` is package.json's: the page names no build, so
 * the checked-in docs/ws.1 is the same from every checkout of one version. */
export function manPage(table: readonly Command[], version: string): string {
  const out = [
    `.\\" Generated from ws's command table by scripts/man-page.ts (ws help --man); do not edit.`,
    `.TH WS 1 "" "ws ${roff(version)}" "User Commands"`,
    ".SH NAME",
    "ws \\- a terminal multiplexer for running many coding agents side by side",
    ".SH SYNOPSIS",
    ".B ws",
    "[\\fB\\-L\\fR \\fINAME\\fR] [\\fB\\-\\-local\\fR]",
    ".br",
    ".B ws",
    "[\\fB\\-L\\fR \\fINAME\\fR] [\\fB\\-\\-json\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR...]",
    ".br",
    ".B ws help",
    "[\\fICOMMAND\\fR]",
    ".SH DESCRIPTION",
    roff(
      "ws is one executable with three faces: the daemon, which owns every pane and the whole interface; the attach client (bare ws, or ws attach), a thin terminal pump as tmux attach is; and the scripting CLI, one request per call over a versioned JSON-lines protocol on a Unix socket.",
    ),
    ".PP",
    roff(
      "Bare ws attaches to the server, starting one when none runs. Keys after the prefix (C-Space) drive the interface as tmux's do: prefix % and \" split, prefix c makes a tab, prefix d detaches, prefix : takes a ws or tmux command line, prefix ? lists every key (ws keys --list prints them). Settings live in keys.toml (see FILES); ws never reads ~/.tmux.conf, and ws config import-tmux writes keys.toml from it.",
    ),
    ".PP",
    roff("ws help COMMAND (or ws COMMAND --help) shows one command's usage; the documents in the source tree's docs/ cover each part in depth."),
    ".SH GLOBAL OPTIONS",
    roff("They may come anywhere before a command's --."),
    ...items(globalItems()),
    ".SH COMMANDS",
  ];
  for (const c of table) {
    out.push(`.SS "${roff(usageLine(c)).replace(/"/g, '""')}"`, roff(c.summary + (c.message ? ` (sends ${c.message})` : "") + "."));
    const list = paramItems(c);
    if (list.length) out.push(".RS", ...items(list), ".RE");
  }
  out.push(
    ".SH ENVIRONMENT",
    ...items([
      ["WS_SOCKET", "The server a command inside a pane talks to (set in every pane)."],
      ["WS_PANE_ID", "The pane a command inside a pane acts on when it names none (set in every pane)."],
      ["WS_HOST", "Run every command against the ws on this host, through ssh (as -H)."],
      ["XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_DATA_HOME, XDG_RUNTIME_DIR", "Where ws keeps its settings, saved sessions and logs, projects and templates, and sockets."],
    ]),
    ".SH FILES",
    ...items([
      ["$XDG_CONFIG_HOME/ws/keys.toml", "The prefix, key bindings and settings, with tmux's names where tmux has the setting (mouse, mode-keys, history-limit, base-index, status, renumber-windows); ws config reload reads it again."],
      ["$XDG_STATE_HOME/ws/", "Saved sessions and each server's log."],
    ]),
    ".SH EXIT STATUS",
    roff("0 on success; 1 when the request failed (the server's error on stderr, its JSON on stdout under --json); 2 for a mistake in the command line; 124 when a wait timed out. Commands that run a program exit with its status."),
    ".SH SEE ALSO",
    "\\fBtmux\\fR(1)",
  );
  return out.join("\n") + "\n";
}
