import type { ReportBuilder } from "./builder.js";
import { readReportEvent } from "./event-reading.js";

/**
 * `builder` fed only events read against the canonical schema, their texts
 * capped (readReportEvent): for a format that reduces events itself rather
 * than through ReportReducer, which reads them so already.
 */
export function withReadableEvents(builder: ReportBuilder): ReportBuilder {
  return {
    file: (name) => builder.file(name),
    add(event) {
      const read = readReportEvent(event);
      if (read.event === undefined || read.leftOut > 0) builder.unreadable?.(event, read);
      if (read.event !== undefined) builder.add(read.event);
    },
    finish: () => builder.finish(),
  };
}
