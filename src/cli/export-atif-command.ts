import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../core/errors.js";
import { EXIT_OUTPUT_ERROR } from "../core/exit-codes.js";
import { fileErrorReason } from "../core/file-errors.js";
import { showControls } from "../core/control-chars.js";
import type { DocumentText } from "../export/atif/run-document.js";
import { AtifInputError, AtifRuns, type WrittenRun } from "../export/atif/runs.js";
import { ReplacedFile } from "../output/replaced-file.js";
import { inputFile, outputFile, refuseSharedFiles, stdoutFile } from "../app/shared-files.js";
import { runRedactor } from "../run/redact.js";
import { forEachCanonicalEvent } from "./canonical-input.js";

export interface ExportAtifOptions {
  out?: string;
}

/**
 * `agentstream export atif [--out DIR] FILE...`: each run of the canonical streams given becomes one ATIF
 * document. Without --out the input must hold one run, written to stdout at the end; with --out each
 * run is written to DIR/<run_id>.json (through a temporary file renamed over it) as soon as it ends,
 * since ATIF readers take one document per file. Exit 0 once written, whatever the runs' outcomes;
 * 2 for an input that is not a canonical stream (or several runs without --out), nothing on stdout.
 */
export async function exportAtifCommand(files: string[], opts: ExportAtifOptions): Promise<void> {
  const inputs = files.length === 0 ? ["-"] : files;
  if (inputs.filter((f) => f === "-").length > 1) throw new UsageError("stdin (-) can be read only once");
  // No document overwrites a stream it is made from: stdout (one run) now, each --out file as it is named.
  const read = inputs.map((f) => inputFile(f));
  refuseSharedFiles([...(opts.out === undefined ? [stdoutFile()] : []), ...read]);
  const out = opts.out === undefined ? undefined : outFolder(opts.out);
  // A stream may quote a key of this environment: hidden as normalize hides it.
  const redactor = runRedactor([], process.env);
  const said = (line: string) => process.stderr.write(redactor.text(`agentstream: ${line}\n`));
  // The one run's document, written to stdout once every input is read (a refusal leaves stdout empty).
  let single: DocumentText | undefined;
  let written = 0;
  let failed = false;
  const names = new Set<string>();
  for (const file of inputs) {
    const shown = file === "-" ? "stdin" : showControls(file);
    // Each run's steps that can no longer change wait in a temporary file, not in memory.
    const runs = AtifRuns.spilling((run) => {
      if (!run.finished)
        said(`${shown}: run ${showControls(run.runId)}: no run.finished: exported with the outcome unknown`);
      if (!out) {
        if (single !== undefined) {
          run.document.dispose();
          throw new UsageError(
            `${shown}: more than one run: one ATIF document is one run`,
            "name a folder for one document per run with --out DIR",
          );
        }
        single = run.document;
        return;
      }
      try {
        const path = join(out, fileName(run, names));
        refuseSharedFiles([outputFile("--out", path), ...read]);
        const target = ReplacedFile.open(path, "--out");
        if (target.commit(run.document.chunks())) written++;
        else failed = true;
      } finally {
        run.document.dispose();
      }
    });
    try {
      await forEachCanonicalEvent(file, "export atif", redactor, (event, notCanonical) => {
        try {
          runs.event(event);
        } catch (err) {
          throw err instanceof AtifInputError ? notCanonical(err.message) : err;
        }
      });
      runs.end();
    } catch (err) {
      runs.discard();
      single?.dispose();
      throw err;
    }
  }
  if (single !== undefined) {
    try {
      await writeToStdout(single.chunks());
    } finally {
      single.dispose();
    }
  } else if (out) said(`${written} ATIF ${written === 1 ? "document" : "documents"} written to ${showControls(out)}`);
  if (failed) process.exitCode = EXIT_OUTPUT_ERROR;
}

/** Writes the pieces to stdout, each once stdout has taken the last (a stdout gone stops it: main says why). */
async function writeToStdout(chunks: Iterable<string | Buffer>): Promise<void> {
  const stdout = process.stdout;
  for (const chunk of chunks) {
    if (stdout.destroyed || stdout.errored) return;
    if (stdout.write(chunk)) continue;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        for (const event of ["drain", "close", "error"]) stdout.off(event, done);
        resolve();
      };
      for (const event of ["drain", "close", "error"]) stdout.on(event, done);
    });
  }
}

function outFolder(dir: string): string {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new UsageError(`--out ${dir}: cannot make the folder: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
  }
  return dir;
}

/** `<run_id>.json`, with what a file name must not hold replaced, and a number added where two runs share one. */
function fileName(run: WrittenRun, taken: Set<string>): string {
  const base =
    run.runId
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .replace(/^\.+/, "_")
      .slice(0, 200) || "run";
  let name = `${base}.json`;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}.json`;
  taken.add(name);
  return name;
}
