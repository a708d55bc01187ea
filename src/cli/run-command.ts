import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { Backend } from "../canonical/events.js";
import { systemClock } from "../core/clock.js";
import { UsageError } from "../core/errors.js";
import { EXIT_EPIPE } from "../core/exit-codes.js";
import type { ResolvedOutcome } from "../core/outcome.js";
import { TranslationSession } from "../core/translation-session.js";
import { HumanRenderer, type Verbosity } from "../human/renderer.js";
import { backendArgv, checkRequestFits, type BackendRequest } from "../run/backend-argv.js";
import { BACKENDS, type BackendSpec } from "../run/backends.js";
import { findExecutable } from "../run/executable.js";
import { runOutput, type OutputFormat } from "../run/output.js";
import { piAcceptsPromptTerminator } from "../run/pi-version.js";
import { promptAsShown, readPrompt, workingDirectory } from "../run/prompt.js";
import { redactSecrets, redactSecretValues, runRedactor } from "../run/redact.js";
import { EarlyStop } from "../run/stop-signals.js";
import { RunSupervisor } from "../run/supervisor.js";
import { VERSION } from "../version.js";
import { AnswerFile, withAnswerFile } from "./answer-file.js";

export interface RunOptions {
  backend: Backend;
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
  // Stop signals before the backend is spawned; the supervisor hears them after.
  const stops = new EarlyStop();
  try {
    await runWith(stops, promptArgument, opts);
  } finally {
    stops.end();
  }
}

async function runWith(stops: EarlyStop, promptArgument: string | undefined, opts: RunOptions): Promise<void> {
  const spec = BACKENDS[opts.backend];
  const wanted: Omit<BackendRequest, "prompt" | "promptTerminator"> = {
    model: opts.model,
    provider: opts.provider,
    workdir: opts.workdir === undefined ? undefined : resolve(opts.workdir),
    autoMode: opts.autoMode,
    backendArgs: opts.backendArg,
  };
  checkRequestFits(spec, wanted);
  if (opts.quiet && opts.verbose) throw new UsageError("--quiet and --verbose exclude each other");
  const prompt = await readPrompt(promptArgument, opts.promptFile, process.stdin, opts.backend, stops);
  const cwd = workingDirectory(opts.cwd);
  const executable = findExecutable(spec, opts.bin, process.env);
  const graceMs = seconds(opts.grace)!;
  const request: BackendRequest = { ...wanted, prompt, promptTerminator: executable.found ? await promptTerminator(spec, executable.path, prompt, graceMs, stops) : false };
  const file = executable.found ? executable.path : spec.executableNames[0]!;
  // What run.started (and --verbose) shows: the argv with secret values hidden, a long prompt shortened (once hidden).
  const shownPrompt = promptAsShown(redactSecretValues([prompt], process.env)[0]!);
  const command = redactSecretValues([file, ...backendArgv(spec, { ...request, prompt: shownPrompt, backendArgs: redactSecrets(request.backendArgs) })], process.env);

  // Whatever the backend prints (its key on stderr, in an error event) is written through this.
  const redactor = runRedactor(request.backendArgs, process.env);
  const stderr = redactor.stream(process.stderr);
  // --output json and text write stdout after the run, when the spinner is gone.
  const stdoutIsTerminal = process.stdout.isTTY === true && opts.output === "jsonl";
  const renderer = new HumanRenderer({ stream: stderr, verbosity: verbosity(opts), backend: spec.backend, stdoutIsTerminal, redact: (text) => redactor.text(text) });
  let supervisor: RunSupervisor | undefined;
  const onGone = (): void => {
    supervisor?.readerGone();
    // Also when stdout was lost during the last writes, after the outcome was known.
    process.exitCode = output.writer.lostExitCode;
  };
  const answerFile = opts.answerFile === undefined ? undefined : AnswerFile.open(opts.answerFile, redactor);
  const output = withAnswerFile(await runOutput(opts.output, { validate: opts.validate, onGone, redactor }), answerFile);
  const session = new TranslationSession({
    from: spec.backend,
    runId: randomUUID(),
    clock: systemClock,
    agentstreamVersion: VERSION,
    started: { mode: "run", command, cwd },
    includeRaw: opts.raw,
    deltas: opts.deltas,
    liveDurations: true,
    maxLineBytes: opts.maxLineBytes,
    onTranslatorBug: (message) => renderer.message(message),
    sink: (event) => {
      output.sink(event);
      renderer.event(event);
    },
    onNativeEvent: (event) => {
      if (spec.terminalTypes.has(event.type)) supervisor?.terminal();
    },
  });

  if (stops.signal) {
    // Stopped after the prompt was read (while pi was asked its version): the run ends cancelled, the backend never started.
    finish(session.end({ backendExit: null, stderrTail: [] }, { kind: "signal", signal: stops.signal }));
    return;
  }

  if (!executable.found) {
    finish(session.end({ backendExit: null, stderrTail: [] }, undefined, { code: "backend_not_found", message: executable.message }));
    renderer.hint(executable.hint);
    return;
  }

  supervisor = new RunSupervisor({
    spec,
    file,
    args: backendArgv(spec, request),
    cwd,
    env: process.env,
    timeoutMs: seconds(opts.timeout),
    lingerMs: seconds(opts.linger),
    graceMs,
    writer: output.writer,
    onStdout: (chunk) => output.writer.batch(() => session.write(chunk)),
    onStderr: (chunk) => renderer.backendStderr(chunk),
    stderrShown: renderer,
    onStatus: (text) => renderer.status(text),
  });
  // run() hears stop signals before it returns: handed over with no gap.
  const running = supervisor.run();
  stops.end();
  const end = await running;

  switch (end.kind) {
    case "stdout_closed":
      renderer.close();
      // A write error was said already, as it happened.
      if (output.writer.lostExitCode === EXIT_EPIPE) renderer.note("stdout was closed by its reader; the backend was stopped");
      process.exitCode = output.writer.lostExitCode;
      return;
    case "launch_failed":
      finish(session.end({ backendExit: null, stderrTail: [] }, undefined, { code: "backend_not_found", message: end.message }));
      renderer.hint(
        end.code === "E2BIG"
          ? "shorten the prompt, the --backend-arg values or the environment: together they must fit the system's limit (getconf ARG_MAX)"
          : `check that ${file} is a program that can run here, or point --bin / ${spec.binEnvVar} elsewhere`,
      );
      return;
    case "exited":
      finish(session.end({ backendExit: end.backendExit, stderrTail: end.stderrTail }, end.interruption));
      return;
  }

  function finish(outcome: ResolvedOutcome): void {
    output.finish();
    // Set, never process.exit(): stdout still has to drain.
    process.exitCode = output.writer.lostExitCode ?? outcome.exitCode;
  }
}

/**
 * pi before 1.6 has no `--` to end its flags. A prompt that does not start
 * with "-" needs none; one that does is refused on such a pi rather than let it
 * become a flag. A stop signal while pi is asked its version stops the run.
 */
async function promptTerminator(spec: BackendSpec, executable: string, prompt: string, graceMs: number, stops: EarlyStop): Promise<boolean> {
  if (spec.backend === "atomic") return true;
  if (spec.backend !== "pi" || !prompt.startsWith("-")) return false;
  const pi = await piAcceptsPromptTerminator(executable, process.env, graceMs, stops);
  // Stopped meanwhile: the run ends cancelled.
  if (pi.accepts || stops.signal) return pi.accepts;
  throw new UsageError(
    `pi ${pi.version ?? "(version unknown)"} has no "--" to end its flags: a prompt starting with "-" would be read as a flag`,
    "reword the prompt so that it does not start with '-', or use pi 1.6 or later",
  );
}

function verbosity(opts: RunOptions): Verbosity {
  return opts.quiet ? "quiet" : opts.verbose ? "verbose" : "normal";
}

function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value * 1000);
}

