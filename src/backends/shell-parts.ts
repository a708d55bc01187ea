// A shell command as the simple commands it would run, for the shell rules of src/backends/tool-rules.ts.
// Strict on purpose: what this small splitter cannot read for certain (an unclosed quote, a heredoc, a
// `case`, a loop, arithmetic, a command named by an expansion) is not split at all, and a command that
// cannot be split is never allowed by a pattern (docs/permissions.md "Rules").

/** One simple command of a shell command line. */
export interface ShellPart {
  /** Its words, quotes removed, joined by one space; an expansion (`$X`, `$(...)`) kept as written. */
  text: string;
  /** The same without the leading `NAME=value` assignments (what a deny rule is matched against too). */
  bare: string;
}

/** Words that make a part a shell construct rather than a command: such a line is not split. */
const RESERVED = new Set([
  "!",
  "{",
  "}",
  "[[",
  "]]",
  "case",
  "coproc",
  "do",
  "done",
  "elif",
  "else",
  "esac",
  "fi",
  "for",
  "function",
  "if",
  "in",
  "select",
  "then",
  "time",
  "until",
  "while",
]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** How deep substitutions and subshells may nest before a line is given up on. */
const MAX_DEPTH = 32;

class CannotSplit extends Error {}

interface Word {
  text: string;
  /** It holds an unquoted or double-quoted expansion, or an unquoted glob character. */
  open: boolean;
  /** Some of it was quoted or escaped (so it is not a reserved word or an assignment). */
  quoted: boolean;
}

/**
 * The simple commands of `command` (`;`, `&`, `&&`, `||`, `|`, `|&`, a newline, `$(...)`, backticks, `<(...)`,
 * `>(...)` and subshells split, each substitution's commands a part of their own), or undefined where the
 * line cannot be split for certain.
 */
export function shellParts(command: string): ShellPart[] | undefined {
  try {
    const parts: ShellPart[] = [];
    const splitter = new Splitter(command, parts, 0);
    splitter.list(undefined);
    return parts;
  } catch (error) {
    if (error instanceof CannotSplit) return undefined;
    throw error;
  }
}

class Splitter {
  constructor(
    private readonly text: string,
    private readonly parts: ShellPart[],
    private readonly depth: number,
    private pos = 0,
  ) {
    if (depth > MAX_DEPTH) throw new CannotSplit();
  }

  /** A subshell or substitution read in the same text, one level deeper: its commands are parts too. */
  private nested(): void {
    const inner = new Splitter(this.text, this.parts, this.depth + 1, this.pos);
    inner.list(")");
    this.pos = inner.pos;
  }

  /** Commands and their separators up to `end` (consumed) or the end of the text. */
  list(end: ")" | undefined): void {
    // After `|`, `|&`, `&&` or `||` a command must follow (a newline may come first).
    let needed = false;
    for (;;) {
      const had = this.command(end);
      const c = this.text[this.pos];
      if (!had && needed && c === "\n") {
        this.pos++;
        continue;
      }
      if (!had && needed) throw new CannotSplit();
      if (c === undefined) {
        if (end !== undefined) throw new CannotSplit();
        return;
      }
      if (c === ")") {
        if (end !== ")") throw new CannotSplit();
        this.pos++;
        return;
      }
      const separator = this.separator();
      if (separator === "\n") continue;
      // `;`, `&` or an operator with no command before it.
      if (!had) throw new CannotSplit();
      needed = separator !== ";" && separator !== "&";
    }
  }

  private separator(): string {
    const c = this.text[this.pos]!;
    const next = this.text[this.pos + 1];
    if ((c === "&" && next === "&") || (c === "|" && (next === "|" || next === "&"))) {
      this.pos += 2;
      return c + next;
    }
    if (c === ";" && next === ";") throw new CannotSplit();
    this.pos++;
    return c;
  }

  /** One simple command (or a subshell); whether there was one. Stops at a separator, `)` or the end. */
  private command(end: ")" | undefined): boolean {
    this.blanks();
    if (this.text[this.pos] === "(") {
      this.pos++;
      this.nested();
      this.blanks();
      this.atBoundary(end);
      return true;
    }
    const words: Word[] = [];
    for (;;) {
      this.blanks();
      const c = this.text[this.pos];
      if (c === undefined || c === "\n" || c === ";" || c === ")" || c === "|") break;
      if (c === "&" && this.text[this.pos + 1] !== ">") break;
      if (c === "#") {
        // A comment runs to the end of the line.
        while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
        break;
      }
      if (c === "(") throw new CannotSplit();
      words.push(this.word());
    }
    if (words.length === 0) return false;
    this.part(words);
    return true;
  }

  private atBoundary(end: ")" | undefined): void {
    const c = this.text[this.pos];
    const ok = c === undefined || c === "\n" || c === ";" || c === "|" || c === "&" || (c === ")" && end === ")");
    if (!ok) throw new CannotSplit();
  }

  private part(words: Word[]): void {
    let first = 0;
    while (first < words.length && !words[first]!.quoted && ASSIGNMENT.test(words[first]!.text)) first++;
    const name = words[first];
    // A redirection before the command (`>/dev/null rm x`) would hide its name: not read.
    const redirection = name !== undefined && !name.quoted && /^(?:[0-9]*[<>]|&>)/.test(name.text);
    if (name !== undefined && (name.open || redirection || (!name.quoted && RESERVED.has(name.text))))
      throw new CannotSplit();
    if (words.some((word) => !word.quoted && (word.text === "[[" || word.text === "]]"))) throw new CannotSplit();
    this.parts.push({
      text: words.map((word) => word.text).join(" "),
      bare: words
        .slice(first)
        .map((word) => word.text)
        .join(" "),
    });
  }

  private blanks(): void {
    for (;;) {
      const c = this.text[this.pos];
      if (c === " " || c === "\t") this.pos++;
      else if (c === "\\" && this.text[this.pos + 1] === "\n") this.pos += 2;
      else return;
    }
  }

  /** One word, up to a blank or an operator. */
  private word(): Word {
    const word: Word = { text: "", open: false, quoted: false };
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined || c === " " || c === "\t" || c === "\n" || c === ";" || c === ")" || c === "|") break;
      if (c === "&") {
        // `&>` and `>&` are redirections; any other `&` ends the word.
        if (this.text[this.pos + 1] !== ">" && !word.text.endsWith(">") && !word.text.endsWith("<")) break;
        word.text += c;
        this.pos++;
        continue;
      }
      if (c === "(") throw new CannotSplit();
      this.pos++;
      if (c === "\\") {
        const next = this.text[this.pos];
        if (next === undefined) throw new CannotSplit();
        this.pos++;
        if (next !== "\n") word.text += next;
        word.quoted = true;
      } else if (c === "'") {
        const close = this.text.indexOf("'", this.pos);
        if (close === -1) throw new CannotSplit();
        word.text += this.text.slice(this.pos, close);
        this.pos = close + 1;
        word.quoted = true;
      } else if (c === '"') {
        this.doubleQuoted(word);
        word.quoted = true;
      } else if (c === "$") {
        this.dollar(word);
      } else if (c === "`") {
        this.backticks(word);
      } else if (c === "<" || c === ">") {
        const next = this.text[this.pos];
        if (c === "<" && next === "<") throw new CannotSplit();
        if (next === "(") {
          // Process substitution: its commands are parts.
          const start = this.pos - 1;
          this.pos++;
          this.nested();
          word.text += this.text.slice(start, this.pos);
          word.open = true;
        } else {
          word.text += c;
          if (next === "|" && c === ">") {
            word.text += next;
            this.pos++;
          }
        }
      } else {
        // Globs and brace expansion (`{rm,-rf,x}` runs rm): not a command name that can be matched.
        if (c === "*" || c === "?" || c === "[" || c === "{") word.open = true;
        word.text += c;
      }
    }
    return word;
  }

  private doubleQuoted(word: Word): void {
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) throw new CannotSplit();
      this.pos++;
      if (c === '"') return;
      if (c === "\\") {
        const next = this.text[this.pos];
        if (next === undefined) throw new CannotSplit();
        this.pos++;
        if (next === "\n") continue;
        word.text += next === "$" || next === "`" || next === '"' || next === "\\" ? next : `\\${next}`;
      } else if (c === "$") this.dollar(word);
      else if (c === "`") this.backticks(word);
      else word.text += c;
    }
  }

  /** After a `$`: a command substitution is split, a parameter kept as written; arithmetic and `$'...'` are not read. */
  private dollar(word: Word): void {
    const start = this.pos - 1;
    const next = this.text[this.pos];
    word.open = true;
    if (next === "(") {
      if (this.text[this.pos + 1] === "(") throw new CannotSplit();
      this.pos++;
      this.nested();
    } else if (next === "{") {
      const close = this.text.indexOf("}", this.pos);
      if (close === -1 || /[$`'"\\{(]/.test(this.text.slice(this.pos + 1, close))) throw new CannotSplit();
      this.pos = close + 1;
    } else if (next === "'" || next === '"' || next === "[") {
      throw new CannotSplit();
    } else {
      const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.text.slice(this.pos));
      if (name) this.pos += name[0].length;
    }
    word.text += this.text.slice(start, this.pos);
  }

  private backticks(word: Word): void {
    const close = this.text.indexOf("`", this.pos);
    if (close === -1) throw new CannotSplit();
    const inner = this.text.slice(this.pos, close);
    // Backslashes mean something else between backticks: not read.
    if (inner.includes("\\")) throw new CannotSplit();
    new Splitter(inner, this.parts, this.depth + 1).list(undefined);
    word.text += this.text.slice(this.pos - 1, close + 1);
    word.open = true;
    this.pos = close + 1;
  }
}
