// tmux's argument parsing (arguments.c): getopt-style flags from a template such as "bc:dt:",
// a letter followed by ':' taking a value; flags end at the first word that is not one, or at `--`.
import { ShimError } from "./world";

export interface Parsed {
  /** Each flag given, with its values in order (a switch has [""] per use). */
  flags: Map<string, string[]>;
  args: string[];
}

export function getopt(command: string, template: string, words: string[]): Parsed {
  const flags = new Map<string, string[]>();
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--") {
      i++;
      break;
    }
    if (!w.startsWith("-") || w === "-") break;
    for (let j = 1; j < w.length; j++) {
      const f = w[j]!;
      const at = template.indexOf(f);
      if (at < 0 || f === ":") throw new ShimError(`command ${command}: unknown flag -${f}`);
      const list = flags.get(f) ?? [];
      flags.set(f, list);
      if (template[at + 1] === ":") {
        let value = w.slice(j + 1);
        if (value === "") {
          if (i + 1 >= words.length) throw new ShimError(`command ${command}: -${f} expects an argument`);
          value = words[++i]!;
        }
        list.push(value);
        break;
      }
      list.push("");
    }
  }
  return { flags, args: words.slice(i) };
}

export const has = (p: Parsed, f: string) => p.flags.has(f);
/** The last value of a flag. */
export const val = (p: Parsed, f: string) => p.flags.get(f)?.at(-1);
