// The HTML report format: one self-contained page (inline CSS and JS, no
// network) with a timeline per run. See page.ts for the page, model.ts for
// what it keeps of each run and its bounds.
import type { CanonicalEvent } from "../../canonical/events.js";
import type { ReportBuilder } from "../builder.js";
import { DEFAULT_LIMITS, RunCollector, type HtmlLimits, type ReportData, type RunData } from "./model.js";
import { renderPage } from "./page.js";

export type { HtmlLimits } from "./model.js";

export interface HtmlReportOptions {
  /** The page's title and heading. */
  title?: string;
  /** Bounds on what is kept in detail (defaults: DEFAULT_LIMITS). */
  limits?: Partial<HtmlLimits>;
}

/** Summary rows kept for runs beyond `limits.runs`. */
const MORE_RUNS_ROWS = 1000;
/** Runs beyond the detailed ones keep only their run-level figures. */
const SUMMARY_ONLY: HtmlLimits = {
  toolCalls: 0,
  messages: 0,
  marks: 0,
  lanes: 0,
  textChars: 200,
  answerChars: 0,
  usagePoints: 1,
  runs: 0,
};

export function createHtmlReport(options: HtmlReportOptions = {}): ReportBuilder {
  const limits: HtmlLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const data: ReportData = { title: options.title ?? "agentstream report", runs: [], moreRuns: [], moreRunsCount: 0 };
  let fileName = "-";
  let current: RunCollector | undefined;

  const closeRun = () => {
    if (!current) return;
    current.close();
    const run: RunData = current.data;
    if (data.runs.length < limits.runs) data.runs.push(run);
    else {
      data.moreRunsCount++;
      if (data.moreRuns.length < MORE_RUNS_ROWS)
        data.moreRuns.push({
          file: run.file,
          run_id: run.run_id,
          ...(run.status ? { status: run.status } : {}),
          events: run.events,
        });
    }
    current = undefined;
  };

  return {
    file(name: string): void {
      closeRun();
      fileName = name;
    },
    add(event: CanonicalEvent): void {
      // A run begins at run.started; a file cut short or glued together still splits where the run changes.
      if (current && (event.type === "run.started" || current.done || event.run_id !== current.data.run_id)) closeRun();
      if (!current) current = new RunCollector(fileName, event, data.runs.length < limits.runs ? limits : SUMMARY_ONLY);
      current.add(event);
    },
    finish(): string {
      closeRun();
      return renderPage(data);
    },
  };
}
