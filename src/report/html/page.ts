// The HTML report's page: one self-contained file. Its content (figures,
// answers, errors, timelines) is static HTML and SVG, so it reads without
// JavaScript and prints whole. The data also goes in as JSON in a
// <script type="application/json">, escaped so that no text in it can end that
// element or open a comment; the inline script reads it for the details panel.
import { escapeHtml } from "../escape-html.js";
import type { ReportData } from "./model.js";
import { SCRIPT } from "./script.js";
import { renderContent } from "./sections.js";
import { STYLE } from "./style.js";

/** No request leaves the page: only its own inline style and script run. */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/** JSON safe inside a <script> element: `<` (so `</script` and `<!--`) and the JS line separators escaped. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The status patterns the timelines' bars fill with (status told by pattern as well as colour). */
const PATTERNS = `<svg class="patterns" aria-hidden="true" focusable="false"><defs>
<pattern id="pat-failed" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(135)"><rect class="pf-failed" width="8" height="8"/><rect class="pf-dark" width="3" height="8"/></pattern>
<pattern id="pat-cancelled" width="8" height="8" patternUnits="userSpaceOnUse"><rect class="pf-cancelled" width="8" height="8"/><rect class="pf-dark" x="6" width="2" height="8"/></pattern>
<pattern id="pat-open" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect class="pf-open" width="8" height="8"/><rect class="pf-light" width="4" height="8"/></pattern>
</defs></svg>`;

/** What the script needs for the details panel: the timeline rows the page already draws stay out. */
function detailData(data: ReportData): unknown {
  return { ...data, runs: data.runs.map(({ turns: _turns, usageLine: _usage, ...run }) => run) };
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
${PATTERNS}
<main id="report">
${renderContent(data)}
</main>
<aside id="details" role="dialog" aria-modal="false" aria-labelledby="details-title" hidden>
<button type="button" class="close" aria-label="Close details (Escape)">Close</button>
<h2 id="details-title" tabindex="-1"></h2>
<div class="body"></div>
</aside>
<script type="application/json" id="agentstream-data">${embedJson(detailData(data))}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
