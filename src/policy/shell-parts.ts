// A shell command as the simple commands it would run, for the shell rules of src/policy/tool-rules.ts.
// Strict on purpose: what this small splitter cannot read for certain (an unclosed quote, a heredoc, a
// `case`, a loop, arithmetic, a command named by an expansion) is not split at all, and a command that
// cannot be split is never allowed by a pattern (docs/permissions.md "Rules").

/** In a word's shape: text known only when the command runs (an expansion, a glob), any characters, none included. */
export const WILD = "\0";

/** One word of a simple command (a redirection is not one). */
export interface ShellWord {
  /** Quotes removed; an expansion (`$X`, `$(...)`, backticks) kept as written. */
  text: string;
  /** The same with each expansion and glob a WILD (a word holding a `[` or a brace expansion is one WILD whole). */
  shape: string;
  /** Some of it was quoted or escaped (so it is not a reserved word, an assignment or a redirection). */
  quoted: boolean;
}

/** One simple command of a shell command line. */
export interface ShellPart {
  /** Its words, quotes removed, joined by one space; an expansion (`$X`, `$(...)`) kept as written. */
  text: string;
  /** The same without the leading `NAME=value` assignments (what a deny rule is matched against too). */
  bare: string;
  /** Its words' shapes (ShellWord.shape) joined by one space: what an allow pattern is matched against. */
  shape: string;
  /** Its words, redirections left out: what tool-rules.ts and shell-runs.ts read. */
  words: readonly ShellWord[];
  /** It redirects output to a file other than /dev/null (`>`, `>>`, `>|`, `&>`, `<>`, `>&FILE`): no allow pattern allows it. */
  writes: boolean;
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

export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** How deep substitutions and subshells may nest before a line is given up on. */
const MAX_DEPTH = 32;

class CannotSplit extends Error {}

interface Word extends ShellWord {
  /** It holds an expansion or an unquoted glob character (its shape holds a WILD). */
  open: boolean;
}

/** A redirection read where a word would be: not a word; whether it writes to a file. */
interface Redirection {
  redirection: true;
  writes: boolean;
}

/**
 * The simple commands of `command` (`;`, `&`, `&&`, `||`, `|`, `|&`, a newline, `$(...)`, backticks, `<(...)`,
 * `>(...)` and subshells split, each substitution's commands a part of their own), or undefined where the
 * line cannot be split for certain. `depth` is how deep this line already is in another's (`bash -c LINE`).
 */
export function shellParts(command: string, depth = 0): ShellPart[] | undefined {
  // No argument of a program can hold a NUL: text that holds one is not a command line.
  if (command.includes(WILD)) return undefined;
  try {
    const parts: ShellPart[] = [];
    const splitter = new Splitter(command, parts, depth);
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
    let writes = false;
    let redirected = false;
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
      const token = this.token();
      if ("redirection" in token) {
        writes ||= token.writes;
        redirected = true;
      } else words.push(token);
    }
    if (words.length === 0 && !redirected) return false;
    this.part(words, writes);
    return true;
  }

  private atBoundary(end: ")" | undefined): void {
    const c = this.text[this.pos];
    const ok = c === undefined || c === "\n" || c === ";" || c === "|" || c === "&" || (c === ")" && end === ")");
    if (!ok) throw new CannotSplit();
  }

  private part(words: Word[], writes: boolean): void {
    let first = 0;
    while (first < words.length && !words[first]!.quoted && ASSIGNMENT.test(words[first]!.text)) first++;
    const name = words[first];
    if (name !== undefined && (name.open || (!name.quoted && RESERVED.has(name.text)))) throw new CannotSplit();
    if (words.some((word) => !word.quoted && (word.text === "[[" || word.text === "]]"))) throw new CannotSplit();
    const kept = words.map(({ text, shape, quoted }) => ({ text, shape, quoted }));
    this.parts.push({
      text: kept.map((word) => word.text).join(" "),
      bare: kept
        .slice(first)
        .map((word) => word.text)
        .join(" "),
      shape: kept.map((word) => word.shape).join(" "),
      words: kept,
      writes,
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

  /** A word, or a redirection where one starts (`>`, `<`, `&>`, or a descriptor's digits before one). */
  private token(): Word | Redirection {
    const word = this.word();
    const c = this.text[this.pos];
    const at = c === "<" || c === ">" || (c === "&" && this.text[this.pos + 1] === ">");
    if (!at) return word;
    // `2>x` is descriptor 2 redirected; `a2>x` is the word a2 then a redirection of stdout.
    if (word.text === "") return this.redirection();
    if (!word.quoted && !word.open && /^[0-9]+$/.test(word.text)) return this.redirection();
    return word;
  }

  /** At a redirection's operator: the operator and its target; a heredoc or a here-string is not read. */
  private redirection(): Redirection {
    const operator = /^(?:&>>|&>|>>|>\||>&|<>|<&|<<|>|<)/.exec(this.text.slice(this.pos, this.pos + 3))![0];
    if (operator === "<<") throw new CannotSplit();
    this.pos += operator.length;
    this.blanks();
    const target = this.word();
    if (target.text === "" && !target.quoted) throw new CannotSplit();
    const dup = (operator === ">&" || operator === "<&") && !target.open && /^(?:[0-9]+-?|-)$/.test(target.text);
    const output = operator !== "<" && operator !== "<&";
    const writes = output && !dup && (target.open || target.text !== "/dev/null");
    return { redirection: true, writes };
  }

  /** One word, up to a blank, an operator or a redirection. */
  private word(): Word {
    const word: Word = { text: "", shape: "", open: false, quoted: false };
    // A bracket expression or a brace expansion (`{push,}`): the whole word is known only when run.
    let whole = false;
    // A brace expansion, unquoted: 1 after `{`, 2 after a `,` or `..` in it, 3 once closed by `}`.
    let brace = 0;
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined || c === " " || c === "\t" || c === "\n" || c === ";" || c === ")" || c === "|") break;
      if (c === "&") break;
      if (c === "(") throw new CannotSplit();
      if ((c === "<" || c === ">") && this.text[this.pos + 1] === "(") {
        // Process substitution: its commands are parts.
        const from = this.pos;
        this.pos += 2;
        this.nested();
        this.expansion(word, this.text.slice(from, this.pos));
        continue;
      }
      if (c === "<" || c === ">") break;
      this.pos++;
      if (c === "\\") {
        const next = this.text[this.pos];
        if (next === undefined) throw new CannotSplit();
        this.pos++;
        if (next !== "\n") this.literal(word, next);
        word.quoted = true;
      } else if (c === "'") {
        const close = this.text.indexOf("'", this.pos);
        if (close === -1) throw new CannotSplit();
        this.literal(word, this.text.slice(this.pos, close));
        this.pos = close + 1;
        word.quoted = true;
      } else if (c === '"') {
        this.doubleQuoted(word);
        word.quoted = true;
      } else if (c === "$") {
        this.dollar(word);
      } else if (c === "`") {
        this.backticks(word);
      } else if (c === "*" || c === "?") {
        word.text += c;
        word.shape += WILD;
        word.open = true;
      } else {
        // `[` starts a bracket expression, `{` maybe a brace expansion (`{rm,-rf,x}` runs rm): not a name to match.
        if (c === "[" || c === "{") word.open = true;
        if (c === "[") whole = true;
        if (c === "{" && brace < 3) brace = 1;
        else if (brace >= 1 && (c === "," || (c === "." && word.text.endsWith(".")))) brace = Math.max(brace, 2);
        else if (c === "}" && brace === 2) brace = 3;
        this.literal(word, c);
      }
    }
    // `{}` (find's) and `{x}` are themselves; a brace holding a comma or `..` expands.
    if (whole || brace === 3) word.shape = WILD;
    return word;
  }

  private literal(word: Word, text: string): void {
    word.text += text;
    word.shape += text;
  }

  /** An expansion, as written in the word's text and one WILD in its shape. */
  private expansion(word: Word, written: string): void {
    word.text += written;
    if (!word.shape.endsWith(WILD)) word.shape += WILD;
    word.open = true;
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
        this.literal(word, next === "$" || next === "`" || next === '"' || next === "\\" ? next : `\\${next}`);
      } else if (c === "$") this.dollar(word);
      else if (c === "`") this.backticks(word);
      else this.literal(word, c);
    }
  }

  /** After a `$`: a command substitution is split, a parameter kept as written; arithmetic and `$'...'` are not read. */
  private dollar(word: Word): void {
    const start = this.pos - 1;
    const next = this.text[this.pos];
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
      if (!name) {
        // A lone `$` is itself.
        this.literal(word, "$");
        return;
      }
      this.pos += name[0].length;
    }
    this.expansion(word, this.text.slice(start, this.pos));
  }

  private backticks(word: Word): void {
    const close = this.text.indexOf("`", this.pos);
    if (close === -1) throw new CannotSplit();
    const inner = this.text.slice(this.pos, close);
    // Backslashes mean something else between backticks: not read.
    if (inner.includes("\\")) throw new CannotSplit();
    new Splitter(inner, this.parts, this.depth + 1).list(undefined);
    this.expansion(word, this.text.slice(this.pos - 1, close + 1));
    this.pos = close + 1;
  }
}
