// The report builders by format: loaded only when a report is made (`report`,
// `--report`, `--summary`), so that `run` and `normalize` without one do not
// load the HTML report's page, style and script.
import type { ReportBuilder } from "./builder.js";
import type { ReportFormat } from "./formats.js";
import { createHtmlReport } from "./html/index.js";
import { createJsonReport } from "./json-report.js";
import { createMarkdownReport } from "./md-report.js";
import { withReadableEvents } from "./readable-builder.js";

/** Each report format's builder, by the name `--format` takes. */
export const REPORT_FORMATS = {
  md: createMarkdownReport,
  json: createJsonReport,
  html: () => withReadableEvents(createHtmlReport()),
} as const satisfies Record<ReportFormat, () => ReportBuilder>;
