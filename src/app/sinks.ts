import type { Redactor } from "../core/redactor.js";
import type { TraceParent } from "../export/run-trace.js";
import { AnswerFile } from "../output/answer-file.js";
import { openOtlpSink, type OtlpSink } from "../output/otlp-sink.js";
import { JobSummary, ReportFile } from "../output/report-sink.js";
import type { Sink } from "../output/sink.js";
import { VERSION } from "../version.js";
import { cliNaming } from "./options.js";
import type { Part } from "./request.js";

/** How one side (the CLI, the library) speaks of the outputs it asked for. */
export interface OutputsSide {
  /** An output's option as this side names it in a sink's messages: "--atif" (the CLI), "atif" (the library). */
  optionName(key: "atif"): string;
  /** Tells the user of a sink that is not written (--summary outside GitHub Actions). */
  notice(message: string): void;
  /** Where the OTLP export says what did not reach its collector (a line, redacted by the export). */
  exportProblem(line: string): void;
  /** agentstream's version (the OTLP export's service.version); the running one unless given. */
  version?: string;
  env?: NodeJS.ProcessEnv;
  /** The span the OTLP export's run hangs under (a compare's), in its trace; else the run is a trace of its own. */
  traceParent?: TraceParent;
}

/**
 * The CLI's side (and a command's of its own on the command line): outputs named by their flags (--atif),
 * a notice said as `notice` says it, the OTLP export's lines on stderr as it wrote them (it redacts them).
 */
export function cliOutputs(notice: (message: string) => void): OutputsSide {
  return {
    optionName: (key) => cliNaming(key),
    notice,
    exportProblem: (line) => void process.stderr.write(line),
  };
}

/** The library's side: outputs named by their option (atif), notices and the export's problems said as `warn` says them. */
export function libraryOutputs(warn: (text: string) => void): OutputsSide {
  return { optionName: (key) => key, notice: warn, exportProblem: warn };
}

/** The sinks a request's outputs opened, and the OTLP export among them (the reading of a recording waits on it). */
export interface OpenedSinks {
  sinks: Sink[];
  otlp: OtlpSink | undefined;
}

/**
 * The one place the sinks a request's outputs ask for are opened, for `run` and `normalize`, the CLI
 * and the library: --answer-file, --report, --atif, --summary and --otlp (the library's `atif` and
 * `otlp`), each checked before anything runs. Should one be refused (a usage error, exit 2), those
 * opened before it are closed and no file is touched.
 */
export async function openSinks(
  outputs: Part<"run", "outputs"> | Part<"normalize", "outputs">,
  redactor: Redactor,
  side: OutputsSide,
): Promise<OpenedSinks> {
  const sinks: Sink[] = [];
  try {
    if (outputs.answerFile !== undefined) sinks.push(AnswerFile.open(outputs.answerFile));
    const report = await ReportFile.open("report" in outputs ? outputs.report : undefined);
    if (report) sinks.push(report);
    // Loaded only when asked for, as the OTLP export is: a run without it starts no slower.
    const atif =
      outputs.atif === undefined
        ? undefined
        : (await import("../output/atif-sink.js")).AtifFile.open(outputs.atif, side.optionName("atif"));
    if (atif) sinks.push(atif);
    const summary = await JobSummary.open(
      "summary" in outputs ? outputs.summary : undefined,
      side.env ?? process.env,
      side.notice,
    );
    if (summary) sinks.push(summary);
    const otlp =
      "otlp" in outputs && outputs.otlp
        ? await openOtlpSink(
            {
              endpoint: outputs.otlp.endpoint,
              content: outputs.otlp.content === true,
              version: side.version ?? VERSION,
              ...(side.traceParent ? { parent: side.traceParent } : {}),
            },
            redactor,
            side.exportProblem,
          )
        : undefined;
    if (otlp) sinks.push(otlp);
    return { sinks, otlp };
  } catch (err) {
    for (const sink of sinks) sink.close?.();
    throw err;
  }
}
