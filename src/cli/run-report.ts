import { closeSync, openSync, writeSync } from "node:fs";
import type { CanonicalEvent } from "../canonical/events.js";
import { UsageError } from "../core/errors.js";
import type { Redactor } from "../core/redactor.js";
import type { ReportBuilder } from "../report/builder.js";
import { formatOfPath, REPORT_EXTENSIONS, REPORT_FORMATS, type ReportFormat } from "../report/formats.js";
import { fileErrorReason } from "./input.js";
import type { RunTarget } from "./output-tee.js";
import { redactReport } from "./report-text.js";
import { ReplacedFile } from "./replaced-file.js";

export interface RunReportOptions {
  report?: string;
  summary?: boolean;
}

const STEP_SUMMARY = "GITHUB_STEP_SUMMARY";

/**
 * `run --report FILE` (the format from FILE's extension) and `--summary`
 * (the Markdown report appended to $GITHUB_STEP_SUMMARY, GitHub Actions' job
 * summary): fed each canonical event as it is written, written when the run
 * ends (or as the process exits, should it end first), secrets hidden as on
 * stdout. Both are checked before the backend starts: a FILE or summary file
 * that cannot be written is a usage error (exit 2).
 */
export class RunReport implements RunTarget {
  private readonly builders = new Map<ReportFormat, ReportBuilder>();
  private done = false;
  // Whatever ends the process before the run's end writes what was seen (an incomplete run).
  private readonly onExit = (): void => this.finish();

  private constructor(
    private readonly file: { out: ReplacedFile; format: ReportFormat } | undefined,
    private readonly summaryFd: number | undefined,
    private readonly redactor: Redactor,
  ) {
    if (file) this.builder(file.format);
    if (summaryFd !== undefined) this.builder("md");
    for (const builder of this.builders.values()) builder.file("run");
    process.once("exit", this.onExit);
  }

  /** Undefined when neither is asked for. `env` is where GITHUB_STEP_SUMMARY is looked up; `say` tells the user it is missing. */
  static open(
    opts: RunReportOptions,
    redactor: Redactor,
    env: NodeJS.ProcessEnv,
    say: (message: string) => void,
  ): RunReport | undefined {
    let report: RunReport | undefined;
    let file: { out: ReplacedFile; format: ReportFormat } | undefined;
    if (opts.report !== undefined) {
      const format = formatOfPath(opts.report);
      if (format === undefined)
        throw new UsageError(
          `--report ${opts.report}: cannot tell the format from its name`,
          `give a name ending in ${REPORT_EXTENSIONS.join(", ")}`,
        );
      file = { format, out: ReplacedFile.open(opts.report, "--report", () => report?.finish()) };
    }
    let summaryFd: number | undefined;
    const summaryPath = opts.summary ? env[STEP_SUMMARY] : undefined;
    if (opts.summary && !summaryPath)
      say(`--summary: ${STEP_SUMMARY} is not set (not a GitHub Actions step), so no job summary is written`);
    if (summaryPath) {
      try {
        summaryFd = openSync(summaryPath, "a");
      } catch (err) {
        file?.out.discard();
        throw new UsageError(
          `cannot write --summary to ${STEP_SUMMARY} (${summaryPath}): ${fileErrorReason(err as NodeJS.ErrnoException)}`,
        );
      }
    }
    if (!file && summaryFd === undefined) return undefined;
    report = new RunReport(file, summaryFd, redactor);
    return report;
  }

  event(event: CanonicalEvent): void {
    for (const builder of this.builders.values()) builder.add(event);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    process.off("exit", this.onExit);
    const texts = new Map(
      [...this.builders].map(([format, builder]) => [format, redactReport(format, builder.finish(), this.redactor)]),
    );
    if (this.file) this.file.out.commit(texts.get(this.file.format)!);
    if (this.summaryFd !== undefined) {
      try {
        writeSync(this.summaryFd, `${texts.get("md")!}\n`);
        closeSync(this.summaryFd);
      } catch (err) {
        process.stderr.write(
          `agentstream: cannot write --summary to ${STEP_SUMMARY}: ${fileErrorReason(err as NodeJS.ErrnoException)}\n`,
        );
      }
    }
  }

  private builder(format: ReportFormat): void {
    if (!this.builders.has(format)) this.builders.set(format, REPORT_FORMATS[format]());
  }
}
