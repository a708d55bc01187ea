import type { Redactor } from "../core/redactor.js";
import { AnswerFile } from "../output/answer-file.js";
import { openOtlpSink, type OtlpSink } from "../output/otlp-sink.js";
import { JobSummary, ReportFile } from "../output/report-sink.js";
import type { Sink } from "../output/sink.js";
import type { Part } from "./request.js";

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
 * --report, --atif, --summary and --otlp, each checked before anything runs. Should
 * one be refused (a usage error, exit 2), those opened before it are closed
 * and no file is touched.
 */
export async function openCliSinks(
  outputs: Part<"run", "outputs"> | Part<"normalize", "outputs">,
  { redactor, version, say, env = process.env }: CliSinkContext,
): Promise<{ sinks: Sink[]; otlp: OtlpSink | undefined }> {
  const sinks: Sink[] = [];
  try {
    if (outputs.answerFile !== undefined) sinks.push(AnswerFile.open(outputs.answerFile));
    const report = await ReportFile.open("report" in outputs ? outputs.report : undefined);
    if (report) sinks.push(report);
    // Loaded only when asked for, as the OTLP export is: a run without it starts no slower.
    const atif =
      outputs.atif === undefined
        ? undefined
        : (await import("../output/atif-sink.js")).AtifFile.open(outputs.atif, "--atif");
    if (atif) sinks.push(atif);
    const summary = await JobSummary.open("summary" in outputs ? outputs.summary : undefined, env, say);
    if (summary) sinks.push(summary);
    const otlp = outputs.otlp
      ? await openOtlpSink(
          { endpoint: outputs.otlp.endpoint, content: outputs.otlp.content === true, version },
          redactor,
          (line) => process.stderr.write(line),
        )
      : undefined;
    if (otlp) sinks.push(otlp);
    return { sinks, otlp };
  } catch (err) {
    for (const sink of sinks) sink.close?.();
    throw err;
  }
}
