// tmux's format language (tmux 3.3 format.c), the part tools use: #{var}, the one-letter aliases
// (#D #P #T #S #I #W #F #H #h), #{?cond,a,b}, comparisons, #{m:glob,s}, #{e|op|:a,b}, and the
// modifiers b d l n q s/a/b/ =N =-N p N. An unknown variable expands to nothing, as in tmux.
// Shared by the tmux shim (its formats) and the interface (a pane's pane-border-format, drawn in
// its label row): a base module, so both layers may use it.

/** Looks a variable up: undefined when there is none. */
export type Lookup = (name: string) => string | undefined;

const ALIASES: Record<string, string> = {
  D: "pane_id",
  P: "pane_index",
  T: "pane_title",
  S: "session_name",
  I: "window_index",
  W: "window_name",
  F: "window_flags",
  H: "host",
  h: "host_short",
};

const MAX_DEPTH = 16;

/** Expand a format. */
export function expand(fmt: string, lookup: Lookup, depth = 0): string {
  if (depth > MAX_DEPTH) return "";
  let out = "";
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== "#" || i + 1 >= fmt.length) {
      out += c;
      continue;
    }
    const n = fmt[i + 1]!;
    if (n === "{") {
      const end = skip(fmt, i, "}");
      if (end < 0) return out; // unterminated: tmux stops there
      out += brace(fmt.slice(i + 2, end), lookup, depth + 1);
      i = end;
    } else if (n === "#" || n === "," || n === "}") {
      out += n;
      i++;
    } else if (ALIASES[n]) {
      out += lookup(ALIASES[n]!) ?? "";
      i++;
    } else out += c;
  }
  return out;
}

/** tmux's format_skip: the index of the first of `end` at bracket depth 0, from `from`; -1 if none. */
function skip(s: string, from: number, end: string): number {
  let brackets = 0;
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (c === "#" && s[i + 1] === "{") brackets++;
    if (c === "#" && i + 1 < s.length && ",#{}:".includes(s[i + 1]!)) {
      i++;
      continue;
    }
    if (c === "}") brackets--;
    if (end.includes(c) && brackets === 0) return i;
  }
  return -1;
}

/** Split at top-level commas. */
function splitArgs(s: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    const at = skip(s, from, ",");
    if (at < 0) break;
    parts.push(s.slice(from, at));
    from = at + 1;
  }
  parts.push(s.slice(from));
  return parts;
}

/** true as tmux's format_true: not empty and not "0". */
export const isTrue = (s: string) => s !== "" && s !== "0";

interface Modifier {
  op: string;
  args: string[];
}

/** The modifiers before the first ':' (`b;=5:`), or null when the text is a plain variable name. */
function parseModifiers(s: string): { mods: Modifier[]; rest: string } | null {
  const mods: Modifier[] = [];
  let i = 0;
  while (i < s.length) {
    const two = s.slice(i, i + 2);
    if (["||", "&&", "!=", "==", "<=", ">="].includes(two)) {
      mods.push({ op: two, args: [] });
      i += 2;
    } else if (s[i] === "s" && s[i + 1] && !/[A-Za-z0-9:;]/.test(s[i + 1]!)) {
      // s/from/to/flags
      const d = s[i + 1]!;
      const parts: string[] = [];
      let j = i + 2;
      let cur = "";
      while (j < s.length && parts.length < 2) {
        if (s[j] === "\\" && s[j + 1] === d) {
          cur += d;
          j += 2;
          continue;
        }
        if (s[j] === d) {
          parts.push(cur);
          cur = "";
        } else cur += s[j];
        j++;
      }
      if (parts.length < 1) return null;
      if (parts.length === 1) parts.push(cur), (cur = "");
      let flags = "";
      while (j < s.length && s[j] !== ":" && s[j] !== ";") flags += s[j++];
      mods.push({ op: "s", args: [parts[0]!, parts[1]!, flags] });
      i = j;
    } else if (s[i] === "e" && s[i + 1] === "|") {
      const close = s.indexOf("|", i + 2);
      if (close < 0) return null;
      let j = close + 1;
      let flags = "";
      while (j < s.length && s[j] !== ":" && s[j] !== ";") flags += s[j++];
      mods.push({ op: "e", args: [s.slice(i + 2, close), flags] });
      i = j;
    } else if (s[i] === "=" || s[i] === "p") {
      const m = /^(-?\d+)(?:\/([^:;]*))?/.exec(s.slice(i + 1));
      if (!m) return null;
      mods.push({ op: s[i]!, args: [m[1]!, m[2] ?? ""] });
      i += 1 + m[0].length;
    } else if (s[i] && "lbdnqmCtwETSWPN!<>".includes(s[i]!)) {
      const op = s[i]!;
      i++;
      let flags = "";
      if (s[i] === "/") {
        i++;
        while (i < s.length && s[i] !== ":" && s[i] !== ";") flags += s[i++];
      }
      mods.push({ op, args: [flags] });
    } else return null;
    if (s[i] === ";") i++;
    else if (s[i] === ":") return { mods, rest: s.slice(i + 1) };
    else return null;
  }
  return null;
}

/** fnmatch(3) for the shapes formats use: * ? [set]. */
export function globMatch(pattern: string, s: string, ignoreCase = false): boolean {
  let re = "^";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        re += "[" + pattern.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\") + "]";
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(re + "$", ignoreCase ? "is" : "s").test(s);
  } catch {
    return false;
  }
}

function compare(op: string, a: string, b: string): boolean {
  switch (op) {
    case "==":
      return a === b;
    case "!=":
      return a !== b;
    case "<":
      return a < b;
    case ">":
      return a > b;
    case "<=":
      return a <= b;
    default:
      return a >= b;
  }
}

function arithmetic(op: string, flags: string, a: string, b: string): string {
  const float = flags.includes("f");
  const x = float ? parseFloat(a) : parseInt(a, 10);
  const y = float ? parseFloat(b) : parseInt(b, 10);
  if (Number.isNaN(x) || Number.isNaN(y)) return "";
  let r: number;
  switch (op) {
    case "+": r = x + y; break;
    case "-": r = x - y; break;
    case "*": r = x * y; break;
    case "/": if (y === 0) return ""; r = x / y; break;
    case "%": case "m": if (y === 0) return ""; r = x % y; break;
    case "==": r = x === y ? 1 : 0; break;
    case "!=": r = x !== y ? 1 : 0; break;
    case "<": r = x < y ? 1 : 0; break;
    case ">": r = x > y ? 1 : 0; break;
    case "<=": r = x <= y ? 1 : 0; break;
    case ">=": r = x >= y ? 1 : 0; break;
    default: return "";
  }
  if (float) return r.toFixed(/\d+/.exec(flags)?.[0] ? Number(/\d+/.exec(flags)![0]) : 2);
  return String(Math.trunc(r));
}

/** The value of one #{…}. */
function brace(content: string, lookup: Lookup, depth: number): string {
  const sub = (s: string) => expand(s, lookup, depth);
  if (content.startsWith("?")) return conditional(content.slice(1), lookup, depth);
  const parsed = parseModifiers(content);
  if (!parsed) return content.includes("#{") ? sub(content) : (lookup(content) ?? "");
  const { mods, rest } = parsed;
  const first = mods[0]!;
  if (["==", "!=", "<", ">", "<=", ">="].includes(first.op)) {
    const [a = "", b = ""] = splitArgs(rest);
    return compare(first.op, sub(a), sub(b)) ? "1" : "0";
  }
  if (first.op === "||" || first.op === "&&") {
    const [a = "", b = ""] = splitArgs(rest);
    const l = isTrue(sub(a));
    const r = isTrue(sub(b));
    return (first.op === "||" ? l || r : l && r) ? "1" : "0";
  }
  if (first.op === "!") return isTrue(sub(rest.startsWith("#{") ? rest : `#{${rest}}`)) ? "0" : "1";
  if (first.op === "m") {
    const [pattern = "", s = ""] = splitArgs(rest);
    const flags = first.args[0] ?? "";
    const p = sub(pattern);
    const t = sub(s);
    if (flags.includes("r")) {
      try {
        return new RegExp(p, flags.includes("i") ? "i" : "").test(t) ? "1" : "0";
      } catch {
        return "0";
      }
    }
    return globMatch(p, t, flags.includes("i")) ? "1" : "0";
  }
  if (first.op === "e") {
    const [a = "", b = ""] = splitArgs(rest);
    return arithmetic(first.args[0]!, first.args[1]!, sub(a), sub(b));
  }
  // A value (a variable, or with l: the text itself), then its modifiers in tmux's order.
  const literal = mods.some((m) => m.op === "l");
  let value = literal ? rest : (lookup(rest) ?? "");
  if (mods.some((m) => m.op === "E" || m.op === "T")) value = sub(value);
  for (const m of mods) {
    if (m.op === "b") value = value.replace(/\/+$/, "").split("/").pop() || (value.startsWith("/") ? "/" : value);
    else if (m.op === "d") {
      const t = value.replace(/\/+$/, "");
      const at = t.lastIndexOf("/");
      value = at < 0 ? "." : at === 0 ? "/" : t.slice(0, at);
    } else if (m.op === "q") value = value.replace(/([^A-Za-z0-9_./,:@%+=-])/g, "\\$1");
  }
  for (const m of mods) {
    if (m.op !== "s") continue;
    try {
      value = value.replace(new RegExp(m.args[0]!, m.args[2]!.includes("i") ? "gi" : "g"), m.args[1]!.replace(/\\(\d)/g, "$$$1"));
    } catch {}
  }
  for (const m of mods) {
    if (m.op === "=") {
      const n = Number(m.args[0]);
      const chars = [...value];
      if (n > 0 && chars.length > n) value = chars.slice(0, n).join("") + m.args[1]!;
      else if (n < 0 && chars.length > -n) value = m.args[1]! + chars.slice(chars.length + n).join("");
    }
  }
  for (const m of mods) {
    if (m.op === "p") {
      const n = Number(m.args[0]);
      const len = [...value].length;
      if (n > 0 && len < n) value = value + " ".repeat(n - len);
      else if (n < 0 && len < -n) value = " ".repeat(-n - len) + value;
    }
  }
  if (mods.some((m) => m.op === "n")) value = String([...value].length);
  return value;
}

/** #{?cond,a,cond2,b,…,else}: each condition a variable, else a format (false if it expands to itself). */
function conditional(content: string, lookup: Lookup, depth: number): string {
  const parts = splitArgs(content);
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const cond = parts[i]!;
    let found = lookup(cond);
    if (found === undefined) {
      // Not a variable: expanded as a format; one that expands to itself is false.
      found = expand(cond, lookup, depth);
      if (found === cond) found = "";
    }
    if (isTrue(found)) return expand(parts[i + 1]!, lookup, depth);
  }
  return parts.length % 2 === 1 ? expand(parts[parts.length - 1]!, lookup, depth) : "";
}
