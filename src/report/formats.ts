import type { ReportBuilder } from "./builder.js";
import { createHtmlReport } from "./html/index.js";
import { createJsonReport } from "./json-report.js";
import { createMarkdownReport } from "./md-report.js";
import { withReadableEvents } from "./readable-builder.js";

/** Each report format's builder, by the name `--format` takes. */
export const REPORT_FORMATS = {
  md: createMarkdownReport,
  json: createJsonReport,
  html: () => withReadableEvents(createHtmlReport()),
} as const satisfies Record<string, () => ReportBuilder>;

export type ReportFormat = keyof typeof REPORT_FORMATS;
export const REPORT_FORMAT_NAMES = Object.keys(REPORT_FORMATS) as ReportFormat[];

const EXTENSIONS: Record<string, ReportFormat> = { md: "md", markdown: "md", json: "json", html: "html", htm: "html" };

/** The format a file name's extension names (report.md, report.json), or undefined. */
export function formatOfPath(path: string): ReportFormat | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext === undefined ? undefined : EXTENSIONS[ext];
}

/** The extensions formatOfPath knows, for messages. */
export const REPORT_EXTENSIONS = Object.keys(EXTENSIONS).map((e) => `.${e}`);
