// Shared by the HTML report's tests: build a report from canonical events and
// read back the data the page embeds.
import { readFileSync } from "node:fs";
import type { CanonicalEvent } from "../../src/canonical/events.js";
import { createHtmlReport, type HtmlReportOptions } from "../../src/report/html/index.js";
import type { ReportData } from "../../src/report/html/model.js";

export function readEvents(path: string): CanonicalEvent[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as CanonicalEvent);
}

/** The report of these files, each a name and its events. */
export function htmlReport(files: [string, readonly object[]][], options?: HtmlReportOptions): string {
  const builder = createHtmlReport(options);
  for (const [name, events] of files) {
    builder.file(name);
    for (const event of events) builder.add(event as CanonicalEvent);
  }
  return builder.finish();
}

/** The JSON the page carries in its agentstream-data element. */
export function embeddedData(html: string): ReportData {
  const match = /<script type="application\/json" id="agentstream-data">([^<]*)<\/script>/.exec(html);
  if (!match) throw new Error("no agentstream-data element");
  return JSON.parse(match[1]!) as ReportData;
}
