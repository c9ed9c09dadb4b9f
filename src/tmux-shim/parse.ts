// tmux's command parser (cmd-parse.y) for the command strings if-shell and run-shell -C take: words
// split at blanks; commands at `;` and newlines; 'single quotes' literal; "double quotes" with
// backslash escapes and $VAR; unquoted backslash escapes, $VAR / ${VAR}, and ~ at a word's start;
// # starts a comment. `{ }` blocks and %if are not taken (a syntax error), as scripts pass plain
// commands.
import { ShimError } from "./world";

const ESCAPES: Record<string, string> = { a: "\x07", b: "\b", e: "\x1b", f: "\f", n: "\n", r: "\r", s: " ", t: "\t", v: "\v" };

export function parseCommands(text: string, env: Record<string, string | undefined>): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  let i = 0;
  const end = () => {
    if (word !== undefined) commands[commands.length - 1]!.push(word);
    word = undefined;
  };
  const add = (s: string) => (word = (word ?? "") + s);
  const variable = (): string => {
    // At a `$`: a name, or {name}; a `$` that starts neither is itself.
    if (text[i + 1] === "{") {
      const close = text.indexOf("}", i + 2);
      if (close < 0) throw new ShimError("invalid environment variable");
      const name = text.slice(i + 2, close);
      i = close + 1;
      return env[name] ?? "";
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
    if (!m) {
      i++;
      return "$";
    }
    i += 1 + m[0].length;
    return env[m[0]] ?? "";
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t") {
      end();
      i++;
    } else if (c === "\n" || c === ";") {
      end();
      commands.push([]);
      i++;
    } else if (c === "#" && word === undefined) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "{" || c === "}" || (c === "%" && word === undefined && /^%(if|elif|else|endif|hidden)\b/.test(text.slice(i)))) {
      if (word === undefined && (text[i + 1] === undefined || /\s/.test(text[i + 1]!))) throw new ShimError("syntax error");
      add(c);
      i++;
    } else if (c === "'") {
      // An unclosed quote ends with the text, as in tmux.
      const close = text.indexOf("'", i + 1) >= 0 ? text.indexOf("'", i + 1) : text.length;
      add(text.slice(i + 1, close));
      i = close + 1;
    } else if (c === '"') {
      add("");
      i++;
      for (;;) {
        if (i >= text.length) break;
        const d = text[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === "\\") {
          if (i + 1 >= text.length) throw new ShimError("syntax error");
          const e = text[i + 1]!;
          add(ESCAPES[e] ?? (e === "\n" ? "" : e));
          i += 2;
        } else if (d === "$") add(variable());
        else {
          add(d);
          i++;
        }
      }
    } else if (c === "\\") {
      const e = text[i + 1];
      if (e === undefined) throw new ShimError("syntax error");
      add(e === "\n" ? "" : e);
      i += 2;
    } else if (c === "$") add(variable());
    else if (c === "~" && word === undefined && (i + 1 >= text.length || /[\s/;]/.test(text[i + 1]!))) {
      add(env.HOME ?? "~");
      i++;
    } else {
      add(c);
      i++;
    }
  }
  end();
  return commands.filter((c) => c.length);
}
