// The HTML report's page: one self-contained file. The data goes in as JSON in
// a <script type="application/json">, escaped so that no text in it can end
// that element or open a comment; the inline script draws the page from it.
import { SCRIPT } from "./script.js";
import { STYLE } from "./style.js";
import type { ReportData } from "./model.js";

/** No request leaves the page: only its own inline style and script run. */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/** JSON safe inside a <script> element: `<` (so `</script` and `<!--`) and the JS line separators escaped. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderPage(data: ReportData): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(data.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main id="report"><noscript><p>This report draws its timeline with JavaScript; the data is in the page's agentstream-data element.</p></noscript></main>
<aside id="details" role="dialog" aria-modal="false" aria-labelledby="details-title" hidden>
<button type="button" class="close" aria-label="Close details (Escape)">Close</button>
<h2 id="details-title" tabindex="-1"></h2>
<div class="body"></div>
</aside>
<script type="application/json" id="agentstream-data">${embedJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
