// A setup or check command line split into words as a shell would split it, but run without one: quotes
// ('...' and "..."), backslash escapes, nothing else (no variables, globs, pipes or redirections).
import { UsageError } from "../core/errors.js";

export function splitWords(line: string, named: string): string[] {
  const words: string[] = [];
  // Undefined between words; "" once a word began (quotes alone make an empty word).
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i]!;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + c;
  }
  if (quote !== undefined) throw new UsageError(`${named}: an unclosed ${quote} in ${JSON.stringify(line)}`);
  if (word !== undefined) words.push(word);
  if (words.length === 0) throw new UsageError(`${named}: no command in ${JSON.stringify(line)}`);
  return words;
}
