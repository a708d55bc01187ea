import { ownTable } from "../core/own-table.js";

/** The report formats, by the name `--format` takes. */
export const REPORT_FORMAT_NAMES = ["md", "json", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMAT_NAMES)[number];

const EXTENSIONS = ownTable<ReportFormat>({ md: "md", markdown: "md", json: "json", html: "html", htm: "html" });

/** The format a file name's extension names (report.md, report.json), or undefined. */
export function formatOfPath(path: string): ReportFormat | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext === undefined ? undefined : EXTENSIONS[ext];
}

/** The extensions formatOfPath knows, for messages. */
export const REPORT_EXTENSIONS = Object.keys(EXTENSIONS).map((e) => `.${e}`);
