import { randomUUID } from "node:crypto";
import { planRun, superviseRun } from "../agent-run.js";
import { reportBug } from "../core/canonical-output.js";
import { systemClock } from "../core/clock.js";
import { UsageError } from "../core/errors.js";
import { EXIT_EPIPE } from "../core/exit-codes.js";
import { HumanRenderer, type Verbosity } from "../human/renderer.js";
import { runOutput, type OutputFormat } from "../run/output.js";
import { readPrompt } from "../run/prompt.js";
import { AnswerFile, withAnswerFile } from "./answer-file.js";

export interface RunOptions {
  backend: string;
  promptFile?: string;
  bin?: string;
  cwd?: string;
  model?: string;
  provider?: string;
  workdir?: string;
  autoMode: boolean;
  backendArg: string[];
  output: OutputFormat;
  answerFile?: string;
  timeout?: number;
  linger?: number;
  grace: number;
  quiet?: boolean;
  verbose?: boolean;
  raw: boolean;
  deltas: boolean;
  validate: boolean;
  maxLineBytes?: number;
}

export async function runCommand(promptArgument: string | undefined, opts: RunOptions): Promise<void> {
  if (opts.quiet && opts.verbose) throw new UsageError("--quiet and --verbose exclude each other");
  const request = {
    backend: opts.backend,
    bin: opts.bin,
    cwd: opts.cwd,
    model: opts.model,
    provider: opts.provider,
    workdir: opts.workdir,
    autoMode: opts.autoMode,
    backendArgs: opts.backendArg,
  };
  const plan = await planRun(request, () => readPrompt(promptArgument, opts.promptFile, process.stdin, opts.backend));

  // Whatever the backend prints (its key on stderr, in an error event) is written through the plan's redactor.
  const stderr = plan.redactor.stream(process.stderr);
  const renderer = new HumanRenderer({ stream: stderr, verbosity: verbosity(opts), backend: plan.definition.name });
  let readerGone: (() => void) | undefined;
  const onGone = (): void => {
    readerGone?.();
    // Also when the reader went away during the last writes, after the outcome was known.
    process.exitCode = EXIT_EPIPE;
  };
  const answerFile = opts.answerFile === undefined ? undefined : AnswerFile.open(opts.answerFile, plan.redactor);
  const output = withAnswerFile(await runOutput(opts.output, { validate: opts.validate, onGone, redactor: plan.redactor }), answerFile);
  const running = superviseRun(plan, {
    runId: randomUUID(),
    clock: systemClock,
    includeRaw: opts.raw,
    deltas: opts.deltas,
    maxLineBytes: opts.maxLineBytes,
    timeoutMs: seconds(opts.timeout),
    lingerMs: seconds(opts.linger),
    graceMs: seconds(opts.grace)!,
    sink: (event) => {
      output.sink(event);
      renderer.event(event);
    },
    output: output.writer,
    batch: (work) => output.writer.batch(work),
    onStderr: (chunk) => renderer.backendStderr(chunk),
    stderrShown: renderer,
    onStatus: (text) => renderer.status(text),
    onTranslatorBug: (message) => reportBug(message, stderr),
    processSignals: true,
  });
  readerGone = running.readerGone;
  const end = await running.ended;

  if (end.kind === "stdout_closed") {
    renderer.close();
    renderer.note("stdout was closed by its reader; the backend was stopped");
    process.exitCode = EXIT_EPIPE;
    return;
  }
  output.finish();
  // Set, never process.exit(): stdout still has to drain.
  process.exitCode = output.writer.closed ? EXIT_EPIPE : end.outcome.exitCode;
  if (end.hint !== undefined) renderer.hint(end.hint);
}

function verbosity(opts: RunOptions): Verbosity {
  return opts.quiet ? "quiet" : opts.verbose ? "verbose" : "normal";
}

function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value * 1000);
}

