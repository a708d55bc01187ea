// Text into HTML (the HTML report, and the raw HTML a Markdown report holds): every character that
// could start markup or end an attribute becomes a character reference.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
