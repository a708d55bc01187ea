import type { Redactor } from "../core/redactor.js";
import type { ReportFormat } from "../report/formats.js";

/**
 * A finished report with the secrets it may quote hidden, as in every other
 * output: a JSON report keeps its shape (only string values change, see
 * Redactor.jsonLine), the others are text.
 */
export function redactReport(format: ReportFormat, text: string, redactor: Redactor): string {
  if (format !== "json") return redactor.text(text);
  const compact = JSON.stringify(JSON.parse(text));
  const redacted = redactor.jsonLine(compact);
  return redacted === compact ? text : `${JSON.stringify(JSON.parse(redacted), null, 2)}\n`;
}
