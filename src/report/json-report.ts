import type { ReportBuilder } from "./builder.js";
import { ReportReducer } from "./report-reducer.js";

/** The report as data (schemas/report-v1.schema.json): the same summary the other formats render. */
export function createJsonReport(): ReportBuilder {
  const reducer = new ReportReducer();
  return {
    file: (name) => reducer.file(name),
    add: (event) => reducer.add(event),
    finish: () => `${JSON.stringify(reducer.finish(), null, 2)}\n`,
  };
}
