/**
 * The prompt as the stream carries it (prompt.submitted): past this many characters (UTF-16 code units) it is
 * cut, its whole size said, so that one line stays bounded whatever a recording's user wrote.
 */
export const MAX_PROMPT_EVENT_CHARS = 65_536;

/** What run.started.command shows where the prompt was: the caller asked that it not be recorded. */
export const PROMPT_LEFT_OUT = "[prompt left out]";

/**
 * `text` cut to `max` characters, never inside a surrogate pair, with a marker saying where and how long it
 * was: `… [prompt shortened here: N bytes in all]`. The text itself where it fits. `whole`: the prompt `text`
 * was made from (its secrets hidden): N is its UTF-8 size, the prompt's own, not the text's.
 */
export function shortenedPrompt(text: string, max: number, whole = text): { text: string; bytes?: number } {
  if (text.length <= max) return { text };
  const bytes = Buffer.byteLength(whole);
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return { text: `${text.slice(0, end)}… [prompt shortened here: ${bytes} bytes in all]`, bytes };
}
