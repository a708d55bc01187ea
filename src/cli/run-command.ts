import { randomUUID } from "node:crypto";
import type { CanonicalEvent } from "../canonical/events.js";
import { planRun } from "../app/agent-run.js";
import type { Transport } from "../backends/acp/facet.js";
import { ending, startRun } from "../app/session.js";
import { systemClock } from "../core/clock.js";
import { UsageError } from "../core/errors.js";
import { EXIT_EPIPE } from "../core/exit-codes.js";
import { HumanRenderer, type Verbosity } from "../human/renderer.js";
import { openCliSinks, type CliSinkOptions } from "../output/cli-sinks.js";
import { stdoutSink, type OutputFormat } from "../output/stdout-sink.js";
import { checkLimits } from "../run/limits.js";
import { readPrompt } from "../run/prompt.js";
import { EarlyStop } from "../run/stop-signals.js";
import { VERSION } from "../version.js";

export interface RunOptions extends CliSinkOptions {
  /** Absent only with --continue-from. */
  backend?: string;
  transport: Transport;
  allowTool: string[];
  denyTool: string[];
  approvals?: "never" | "auto";
  resume?: string;
  continueFrom?: string;
  promptFile?: string;
  bin?: string;
  cwd?: string;
  model?: string;
  provider?: string;
  workdir?: string;
  autoMode: boolean;
  backendArg: string[];
  output: OutputFormat;
  /** --timeout, --linger, --grace: given in seconds, parsed into milliseconds. */
  timeout?: number;
  maxTurns?: number;
  maxTokens?: number;
  maxCostUsd?: number;
  linger?: number;
  grace: number;
  quiet?: boolean;
  verbose?: boolean;
  raw: boolean;
  deltas: boolean;
  validate: boolean;
  maxLineBytes?: number;
  outputSchema?: string;
}

export async function runCommand(promptArgument: string | undefined, opts: RunOptions): Promise<void> {
  // Stop signals before the backend is spawned; the supervisor hears them after.
  const stops = new EarlyStop();
  try {
    await runWith(stops, promptArgument, opts);
  } finally {
    stops.end();
  }
}

async function runWith(stops: EarlyStop, promptArgument: string | undefined, opts: RunOptions): Promise<void> {
  if (opts.quiet && opts.verbose) throw new UsageError("--quiet and --verbose exclude each other");
  const limits = { maxTurns: opts.maxTurns, maxTokens: opts.maxTokens, maxCostUsd: opts.maxCostUsd };
  checkLimits(limits);
  const request = {
    backend: opts.backend,
    transport: opts.transport,
    bin: opts.bin,
    cwd: opts.cwd,
    model: opts.model,
    provider: opts.provider,
    workdir: opts.workdir,
    autoMode: opts.autoMode,
    backendArgs: opts.backendArg,
    limits,
    allowTools: opts.allowTool,
    denyTools: opts.denyTool,
    approvals: opts.approvals,
    resume: opts.resume,
    continueFrom: opts.continueFrom,
    outputSchema: opts.outputSchema,
  };
  const graceMs = opts.grace;
  const plan = await planRun(
    request,
    (backend) => readPrompt(promptArgument, opts.promptFile, process.stdin, backend, stops),
    { graceMs, stops },
  );

  // Whatever the backend prints (its key on stderr, in an error event) is written through the plan's redactor.
  const { redactor } = plan;
  const stderr = redactor.stream(process.stderr);
  // --output json and text write stdout after the run, when the spinner is gone.
  const stdoutIsTerminal = process.stdout.isTTY === true && opts.output === "jsonl";
  const renderer = new HumanRenderer({
    stream: stderr,
    verbosity: verbosity(opts),
    backend: plan.definition.name,
    stdoutIsTerminal,
    redact: (text) => redactor.text(text),
  });
  let readerGone: (() => void) | undefined;
  const onGone = (): void => {
    readerGone?.();
    // Also when stdout was lost during the last writes, after the outcome was known.
    process.exitCode = stdout.writer.lostExitCode;
  };
  const stdout = await stdoutSink(opts.output, { validate: opts.validate, onGone });
  const { sinks } = await openCliSinks(opts, {
    redactor,
    version: VERSION,
    say: (message) => renderer.message(message),
  });
  const human = { name: "stderr", event: (event: CanonicalEvent) => renderer.event(event), end: () => {} };
  const spec = {
    plan,
    translation: { raw: opts.raw, deltas: opts.deltas, maxLineBytes: opts.maxLineBytes },
    limits,
    timing: { timeoutMs: opts.timeout, lingerMs: opts.linger, graceMs },
  };
  const session = startRun(spec, {
    runId: randomUUID(),
    clock: systemClock,
    sinks: [stdout, ...sinks, human],
    // A warning may quote the agent (its name, a sink's failure on its text).
    warn: (line) => stderr.write(redactor.shown(line)),
    output: stdout.writer,
    onStderr: (chunk) => renderer.backendStderr(chunk),
    stderrShown: renderer,
    onStatus: (text) => renderer.status(text),
    onTranslatorBug: (message) => renderer.message(message),
    onNote: opts.quiet ? undefined : (text) => renderer.message(text),
    onWarning: (text) => renderer.message(text),
    processSignals: true,
    earlyStop: stops,
  });
  readerGone = session.readerGone;
  const end = await ending(session);

  if (end.kind === "stdout_closed") {
    renderer.close();
    // A write error was said already, as it happened.
    if (stdout.writer.lostExitCode === EXIT_EPIPE)
      renderer.note("stdout was closed by its reader; the backend was stopped");
    process.exitCode = stdout.writer.lostExitCode;
    await session.end();
    return;
  }
  // Set before the sinks end, never process.exit(): stdout still has to drain, and no sink changes it.
  process.exitCode = end.outcome.exitCode;
  if (end.hint !== undefined) renderer.hint(end.hint);
  await session.end();
  process.exitCode = stdout.writer.lostExitCode ?? end.outcome.exitCode;
}

function verbosity(opts: RunOptions): Verbosity {
  return opts.quiet ? "quiet" : opts.verbose ? "verbose" : "normal";
}
