import { closeSync, openSync, writeSync } from "node:fs";
import type { CanonicalEvent } from "../canonical/events.js";
import { UsageError } from "../core/errors.js";
import { fileErrorReason } from "../core/file-errors.js";
import type { ReportBuilder } from "../report/builder.js";
import { formatOfPath, REPORT_EXTENSIONS, type ReportFormat } from "../report/formats.js";
import { createReportBuilder } from "../report/load-builder.js";
import { ReplacedFile } from "./replaced-file.js";
import { STEP_SUMMARY, type Sink } from "./sink.js";

/** A report builder fed one run: the events arrive redacted, so no report can quote a secret however it escapes. */
async function runBuilder(format: ReportFormat): Promise<ReportBuilder> {
  const builder = await createReportBuilder(format);
  builder.file("run");
  return builder;
}

/**
 * `run --report FILE` (the format from FILE's extension): fed each canonical
 * event as it is written, written when the run ends (or as the process exits,
 * should it end first). FILE is checked before the backend starts: one that
 * cannot be written is a usage error (exit 2).
 */
export class ReportFile implements Sink {
  readonly name = "--report";
  private readonly out: ReplacedFile;

  private constructor(
    path: string,
    private readonly builder: ReportBuilder,
  ) {
    this.out = ReplacedFile.open(path, "--report", () => this.end());
  }

  /** Undefined without --report; rejects with a UsageError for a name of no known format or a file that cannot be written. */
  static async open(path: string | undefined): Promise<ReportFile | undefined> {
    if (path === undefined) return undefined;
    const format = formatOfPath(path);
    if (format === undefined)
      throw new UsageError(
        `--report ${path}: cannot tell the format from its name`,
        `give a name ending in ${REPORT_EXTENSIONS.join(", ")}`,
      );
    return new ReportFile(path, await runBuilder(format));
  }

  event(event: CanonicalEvent): void {
    this.builder.add(event);
  }

  end(): void {
    this.out.commit(this.builder.finish());
  }

  close(): void {
    this.out.discard();
  }
}

/**
 * `--summary`: the run's Markdown report appended to $GITHUB_STEP_SUMMARY
 * (GitHub Actions' job summary) when the run ends. A summary file that cannot
 * be opened is a usage error (exit 2); without the variable, `say` tells the
 * user and there is no sink.
 */
export class JobSummary implements Sink {
  readonly name = "--summary";
  private done = false;
  private readonly onExit = (): void => this.end();

  private constructor(
    private readonly fd: number,
    private readonly builder: ReportBuilder,
  ) {
    process.once("exit", this.onExit);
  }

  static async open(
    wanted: boolean | undefined,
    env: NodeJS.ProcessEnv,
    say: (message: string) => void,
  ): Promise<JobSummary | undefined> {
    if (!wanted) return undefined;
    const path = env[STEP_SUMMARY];
    if (!path) {
      say(`--summary: ${STEP_SUMMARY} is not set (not a GitHub Actions step), so no job summary is written`);
      return undefined;
    }
    const builder = await runBuilder("md");
    try {
      return new JobSummary(openSync(path, "a"), builder);
    } catch (err) {
      throw new UsageError(
        `cannot write --summary to ${STEP_SUMMARY} (${path}): ${fileErrorReason(err as NodeJS.ErrnoException)}`,
      );
    }
  }

  event(event: CanonicalEvent): void {
    this.builder.add(event);
  }

  end(): void {
    if (!this.finish()) return;
    try {
      writeSync(this.fd, `${this.builder.finish()}\n`);
    } finally {
      closeSync(this.fd);
    }
  }

  close(): void {
    if (this.finish()) closeSync(this.fd);
  }

  /** True the first time (the summary is written or closed once). */
  private finish(): boolean {
    if (this.done) return false;
    this.done = true;
    process.off("exit", this.onExit);
    return true;
  }
}
