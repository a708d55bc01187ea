// C0 controls, DEL and C1 controls: what a terminal may act on rather than show. And the
// bidirectional embeddings, overrides and isolates, which make a line read otherwise than
// it is written ("Trojan Source"); the marks (LRM, RLM) that right-to-left text needs are kept.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Native text made safe to write to a terminal: every control character shown,
 * never sent (ESC → ␛, BEL → ␇, CR → ␍, DEL → ␡, a C1 control as \u009b, a
 * bidirectional override as \u202e), so a backend's output cannot retitle,
 * clear or redraw the user's terminal, nor reorder what a line shows.
 */
export function showControls(text: string): string {
  return text.replace(CONTROL, (ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return "\u2421";
    return `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** The same for text of several lines (a usage message, a stack): its newlines kept, every other control shown. */
export function showControlsInLines(text: string): string {
  return text.split("\n").map(showControls).join("\n");
}

/** The same for an answer shown on a terminal: its newlines and tabs kept, every other control shown. */
export function showControlsInText(text: string): string {
  return text
    .split("\n")
    .map((line) => line.split("\t").map(showControls).join("\t"))
    .join("\n");
}
