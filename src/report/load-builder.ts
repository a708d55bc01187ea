import type { ReportBuilder } from "./builder.js";
import type { ReportFormat } from "./formats.js";

/** A fresh builder of the format; the builders (the HTML page among them) are loaded on the first one. */
export async function createReportBuilder(format: ReportFormat): Promise<ReportBuilder> {
  const { REPORT_FORMATS } = await import("./builders.js");
  return REPORT_FORMATS[format]();
}
