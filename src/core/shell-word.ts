// Values in a command agentstream shows for the user to paste (a resume hint,
// a usage hint): each one word a POSIX shell reads back exactly, never code it
// runs. One function for every hint, so that a hostile session id or tool name
// (`$(rm -rf ~)`, a quote, a `;`) stays a word.
import { nameProblem } from "./argv-value.js";

// Characters no POSIX shell (nor bash or zsh, interactive or not) gives a meaning inside a word
// (zsh expands a word that starts with `=`).
const PLAIN = /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/;
// Special inside double quotes: expansions, the escape, the quote itself, and bash's and zsh's history `!`.
const DOUBLE_QUOTE_SPECIAL = /["$`\\!]/;
// Bidirectional overrides and isolates: the shown hint would read otherwise than the pasted one.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * TEXT as one POSIX shell word that reads back as TEXT: bare where nothing in it is special (`-p`), in
 * double quotes where nothing is special there (`"hi there"`), else in single quotes
 * (each `'` written `'\''`). A NUL cannot be given to a program at all: the caller keeps it out.
 */
export function shellWord(text: string): string {
  if (PLAIN.test(text)) return text;
  if (!DOUBLE_QUOTE_SPECIAL.test(text)) return `"${text}"`;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A value from a backend (a session id, a tool name) for a hint to paste: one shell word
 * (shellWord), or PLACEHOLDER (`SESSION`, `NAME`) where the value cannot be pasted as shown:
 * empty, a leading `-` (the command would read it as a flag), a control character (the terminal
 * shows it escaped, so the pasted text would differ) or a bidirectional override.
 */
export function pastedValue(value: string, placeholder: string): string {
  return pastable(value) ? shellWord(value) : placeholder;
}

/** Whether pastedValue gives VALUE itself, not the placeholder. */
export function pastable(value: string): boolean {
  return nameProblem(value) === undefined && !BIDI.test(value);
}
