import { statSync } from "node:fs";
import { compareReport } from "../compare/report.js";
import { UsageError } from "../core/errors.js";
import { EXIT_OUTPUT_ERROR } from "../core/exit-codes.js";
import { formatOfPath, REPORT_EXTENSIONS, type ReportFormat } from "../report/formats.js";
import { createReportBuilder } from "../report/load-builder.js";
import type { ReportBuilder } from "../report/builder.js";
import { runRedactor } from "../run/redact.js";
import type { Redactor } from "../core/redactor.js";
import { ReplacedFile } from "../output/replaced-file.js";
import { inputFile, outputFile, refuseSharedFiles, stdoutFile } from "../app/shared-files.js";
import { forEachCanonicalEvent } from "./canonical-input.js";

export interface ReportOptions {
  format?: ReportFormat;
  out?: string;
}

/**
 * `agentstream report [--format md|html|json] [--out FILE] FILE...`: one
 * report over canonical streams, read one after another as they stream (a
 * bounded summary per run, never the streams), written at the end: on stdout,
 * or into FILE through a temporary file renamed over it. Exit 0 once written,
 * whatever the runs' outcomes (the report says them); 2 for an input that
 * cannot be read or is not a canonical stream, with nothing written.
 */
export async function reportCommand(files: string[], opts: ReportOptions): Promise<void> {
  const format = reportFormat(opts);
  const inputs = files.length === 0 ? ["-"] : files;
  // A compare's folder (or its shards' folders): its side by side and its cells.
  if (inputs.some(isFolder)) return compareReportOf(inputs, format, opts.out);
  if (inputs.filter((f) => f === "-").length > 1) throw new UsageError("stdin (-) can be read only once");
  // The report never replaces (nor is appended to) a stream it reads.
  const output = opts.out === undefined ? stdoutFile() : outputFile("--out", opts.out);
  refuseSharedFiles([output, ...inputs.map((f) => inputFile(f))]);
  const builder = await createReportBuilder(format);
  const out = opts.out === undefined ? undefined : ReplacedFile.open(opts.out, "--out");
  // A stream may quote a key of this environment: hidden as normalize hides it, in each event before the report renders it.
  const redactor = runRedactor([], process.env);
  try {
    for (const file of inputs) await readInto(builder, file, redactor);
  } catch (err) {
    out?.discard();
    throw err;
  }
  const text = builder.finish();
  if (!out) process.stdout.write(text);
  else if (!out.commit(text)) process.exitCode = EXIT_OUTPUT_ERROR;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function compareReportOf(dirs: string[], format: ReportFormat, outPath: string | undefined): void {
  const notFolder = dirs.find((dir) => !isFolder(dir));
  if (notFolder !== undefined)
    throw new UsageError(`${notFolder} is not a folder: a report reads either streams or compare folders, not both`);
  const text = compareReport(dirs, format);
  if (outPath === undefined) {
    process.stdout.write(text);
    return;
  }
  const out = ReplacedFile.open(outPath, "--out");
  if (!out.commit(text)) process.exitCode = EXIT_OUTPUT_ERROR;
}

function reportFormat(opts: ReportOptions): ReportFormat {
  if (opts.format !== undefined) return opts.format;
  if (opts.out === undefined) return "md";
  const format = formatOfPath(opts.out);
  if (format === undefined)
    throw new UsageError(
      `--out ${opts.out}: cannot tell the format from its name`,
      `give --format, or a name ending in ${REPORT_EXTENSIONS.join(", ")}`,
    );
  return format;
}

async function readInto(builder: ReportBuilder, file: string, redactor: Redactor): Promise<void> {
  builder.file(file);
  await forEachCanonicalEvent(file, "report", redactor, (event) => builder.add(event));
}
