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
import { readPrompt, workingDirectory } from "../run/prompt.js";
import { redactSecrets, redactSecretValues, runRedactor } from "../run/redact.js";
import { RunSupervisor } from "../run/supervisor.js";
import { VERSION } from "../version.js";

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
  const prompt = await readPrompt(promptArgument, opts.promptFile, process.stdin, opts.backend);
  const cwd = workingDirectory(opts.cwd);
  const executable = findExecutable(spec, opts.bin, process.env);
  const request: BackendRequest = {
    ...wanted,
    prompt,
    promptTerminator: executable.found ? await promptTerminator(spec, executable.path, prompt) : false,
  };
  const file = executable.found ? executable.path : spec.executableNames[0]!;
  // What run.started (and --verbose) shows: the argv with secret values hidden.
  const command = redactSecretValues([file, ...backendArgv(spec, { ...request, backendArgs: redactSecrets(request.backendArgs) })], process.env);

  // Whatever the backend prints (its key on stderr, in an error event) is written through this.
  const redactor = runRedactor(request.backendArgs, process.env);
  const stderr = redactor.stream(process.stderr);
  // --output json and text write stdout after the run, when the spinner is gone.
  const stdoutIsTerminal = process.stdout.isTTY === true && opts.output === "jsonl";
  const renderer = new HumanRenderer({ stream: stderr, verbosity: verbosity(opts), backend: spec.backend, stdoutIsTerminal, redact: (text) => redactor.text(text) });
  let supervisor: RunSupervisor | undefined;
  const onGone = (): void => {
    supervisor?.readerGone();
    // Also when the reader went away during the last writes, after the outcome was known.
    process.exitCode = EXIT_EPIPE;
  };
  const output = await runOutput(opts.output, { validate: opts.validate, onGone, redactor });
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
    graceMs: seconds(opts.grace)!,
    writer: output.writer,
    onStdout: (chunk) => output.writer.batch(() => session.write(chunk)),
    onStderr: (chunk) => renderer.backendStderr(chunk),
    stderrShown: renderer,
    onStatus: (text) => renderer.status(text),
  });
  const end = await supervisor.run();

  switch (end.kind) {
    case "stdout_closed":
      renderer.close();
      renderer.note("stdout was closed by its reader; the backend was stopped");
      process.exitCode = EXIT_EPIPE;
      return;
    case "launch_failed":
      finish(session.end({ backendExit: null, stderrTail: [] }, undefined, { code: "backend_not_found", message: end.message }));
      renderer.hint(`check that ${file} is a program that can run here, or point --bin / ${spec.binEnvVar} elsewhere`);
      return;
    case "exited":
      finish(session.end({ backendExit: end.backendExit, stderrTail: end.stderrTail }, end.interruption));
      return;
  }

  function finish(outcome: ResolvedOutcome): void {
    output.finish();
    // Set, never process.exit(): stdout still has to drain.
    process.exitCode = output.writer.closed ? EXIT_EPIPE : outcome.exitCode;
  }
}

/**
 * pi before 1.6 has no `--` to end its flags. A prompt that does not start
 * with "-" needs none; one that does is refused on such a pi rather than let it
 * become a flag.
 */
async function promptTerminator(spec: BackendSpec, executable: string, prompt: string): Promise<boolean> {
  if (spec.backend === "atomic") return true;
  if (spec.backend !== "pi" || !prompt.startsWith("-")) return false;
  const pi = await piAcceptsPromptTerminator(executable, process.env);
  if (pi.accepts) return true;
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

