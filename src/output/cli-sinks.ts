import type { Redactor } from "../core/redactor.js";
import { AnswerFile } from "./answer-file.js";
import { cliOtlpSink, type OtlpOptions, type OtlpSink } from "./otlp-sink.js";
import { JobSummary, ReportFile, type RunReportOptions } from "./report-sink.js";
import type { Sink } from "./sink.js";

export interface CliSinkOptions extends OtlpOptions, RunReportOptions {
  answerFile?: string;
}

/** What the sinks need to know of the run besides its options. */
export interface CliSinkContext {
  redactor: Redactor;
  /** agentstream's version (the OTLP export's service.version). */
  version: string;
  /** Tells the user of a sink that is not written (--summary outside GitHub Actions). */
  say: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

/**
 * The sinks `run` and `normalize` write besides stdout: --answer-file,
 * --report, --summary and --otlp, each checked before anything runs. Should
 * one be refused (a usage error, exit 2), those opened before it are closed
 * and no file is touched.
 */
export async function openCliSinks(
  opts: CliSinkOptions,
  { redactor, version, say, env = process.env }: CliSinkContext,
): Promise<{ sinks: Sink[]; otlp: OtlpSink | undefined }> {
  const sinks: Sink[] = [];
  try {
    if (opts.answerFile !== undefined) sinks.push(AnswerFile.open(opts.answerFile));
    const report = await ReportFile.open(opts.report);
    if (report) sinks.push(report);
    const summary = await JobSummary.open(opts.summary, env, say);
    if (summary) sinks.push(summary);
    const otlp = await cliOtlpSink(opts, redactor, version);
    if (otlp) sinks.push(otlp);
    return { sinks, otlp };
  } catch (err) {
    for (const sink of sinks) sink.close?.();
    throw err;
  }
}
