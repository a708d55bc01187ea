import { CANONICAL_MAX_LINE_BYTES } from "../core/read-canonical.js";
import { NumberedLineSplitter } from "../core/numbered-lines.js";
import { loadValidator, type Validator } from "../schema/validator.js";
import type { VerifyProblem } from "./problem.js";
import { StreamVerifier } from "./stream-verifier.js";

export interface VerifyStreamOptions {
  /** Receives each problem as soon as it is found, in input order (the summary counts them either way). */
  onProblem?: (problem: VerifyProblem) => void;
  /** The schema validator; defaults to the compiled canonical v1 one. */
  validate?: Validator;
  /** Longest line checked; a longer one is reported, not read. */
  maxLineBytes?: number;
}

export interface VerifySummary {
  /** Lines checked (blank lines are not). */
  lines: number;
  problems: number;
  /** The input looks like a backend's native stream (its first line has no v, seq or run_id): normalize it first. */
  looksNative: boolean;
}

/** Verify a canonical JSONL stream as it arrives, reporting each problem through onProblem. */
export async function verifyStream(
  input: AsyncIterable<Buffer | string>,
  options: VerifyStreamOptions = {},
): Promise<VerifySummary> {
  const verifier = new StreamVerifier(options.validate ?? (await loadValidator()));
  let problems = 0;
  const report = (found: VerifyProblem[]): void => {
    for (const problem of found) {
      problems++;
      options.onProblem?.(problem);
    }
  };
  const lines = new NumberedLineSplitter(
    (line, number) =>
      report("overlong" in line ? verifier.pushOverlong(line.bytes, number) : verifier.push(line.text, number)),
    { maxLineBytes: options.maxLineBytes ?? CANONICAL_MAX_LINE_BYTES },
  );
  for await (const chunk of input) lines.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  lines.end();
  report(verifier.finish());
  return { lines: verifier.lineCount, problems, looksNative: verifier.looksNative };
}
