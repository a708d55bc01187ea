// Text into HTML and inline SVG: every character that could start markup or
// end an attribute becomes a character reference.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
