// A line of ws batch, or of the command line (prefix :), as words, the way a shell splits them but
// expanding nothing: blanks separate words; 'single quotes' are literal; "double quotes" keep
// blanks and take \" \\ \$ \` escapes; a backslash outside quotes makes the next character literal;
// # at a word's start begins a comment. No $VAR, ~, globs or command substitution: the words are
// exactly what the line says.

export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === " " || c === "\t" || c === "\r") end();
    else if (c === "#" && word === undefined) break;
    else if (c === "\\") {
      if (i + 1 >= line.length) throw new Error("a backslash at the end of the line");
      word = (word ?? "") + line[++i];
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new Error("an unclosed ' quote");
      word = (word ?? "") + line.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let text = "";
      for (i++; ; i++) {
        if (i >= line.length) throw new Error('an unclosed " quote');
        const d = line[i]!;
        if (d === '"') break;
        if (d === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) text += line[++i];
        else text += d;
      }
      word = (word ?? "") + text;
    } else word = (word ?? "") + c;
  }
  end();
  return words;
}
