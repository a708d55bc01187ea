import { randomUUID } from "node:crypto";
import type { CanonicalEvent } from "../canonical/events.js";
import { cliNaming } from "../app/options.js";
import { prepareRun } from "../app/agent-run.js";
import { requestFromCli, type RunRequest } from "../app/request.js";
import { ending, startRun } from "../app/session.js";
import { cliOutputs } from "../app/sinks.js";
import { promptOnStdin, refuseOverwrites, stdoutFile } from "../app/shared-files.js";
import { systemClock } from "../core/clock.js";
import { wordedWith } from "../core/errors.js";
import { EXIT_EPIPE } from "../core/exit-codes.js";
import { HumanRenderer, type Verbosity } from "../human/renderer.js";
import { stdoutSink } from "../output/stdout-sink.js";
import { readPrompt } from "../run/prompt.js";
import { EarlyStop } from "../run/stop-signals.js";

/** `agentstream run`: commander's parsed flags become the run's request, as the library's options do. */
export async function runCommand(promptArgument: string | undefined, parsed: Record<string, unknown>): Promise<void> {
  const { request, notes } = requestFromCli("run", parsed);
  // No output overwrites an input or another output: refused before anything is read or started.
  const prompt = promptArgument === "-" && request.promptFile === undefined ? [promptOnStdin()] : [];
  refuseOverwrites("run", request, [...prompt, stdoutFile()]);
  for (const note of notes) process.stderr.write(`agentstream: ${note(cliNaming)}\n`);
  // Stop signals before the backend is spawned; the supervisor hears them after.
  const stops = new EarlyStop();
  try {
    await runWith(stops, promptArgument, request);
  } finally {
    stops.end();
  }
}

async function runWith(stops: EarlyStop, promptArgument: string | undefined, request: RunRequest): Promise<void> {
  const spec = await prepareRun(
    request,
    (backend) => readPrompt(promptArgument, request.promptFile, process.stdin, backend, stops),
    stops,
  );

  // Whatever the backend prints (its key on stderr, in an error event) is written through the plan's redactor.
  const { redactor } = spec.plan;
  const stderr = redactor.stream(process.stderr);
  // --output json and text write stdout after the run, when the spinner is gone.
  const stdoutIsTerminal = process.stdout.isTTY === true && request.output === "jsonl";
  const renderer = new HumanRenderer({
    stream: stderr,
    verbosity: verbosity(request),
    backend: spec.plan.definition.name,
    stdoutIsTerminal,
    redact: (text) => redactor.text(text),
  });
  let readerGone: (() => void) | undefined;
  const onGone = (): void => {
    readerGone?.();
    // Also when stdout was lost during the last writes, after the outcome was known.
    process.exitCode = stdout.writer.lostExitCode;
  };
  const stdout = await stdoutSink(request.output, { validate: request.validate, onGone });
  const human = { name: "stderr", event: (event: CanonicalEvent) => renderer.event(event), end: () => {} };
  const session = await startRun(spec, {
    runId: randomUUID(),
    clock: systemClock,
    stdout,
    outputs: cliOutputs((message) => renderer.message(message)),
    sinks: [human],
    // A warning may quote the agent (its name, a sink's failure on its text).
    warn: (line) => stderr.write(redactor.shown(line)),
    onStderr: (chunk) => renderer.backendStderr(chunk),
    stderrShown: renderer,
    onStatus: (text) => renderer.status(text),
    onTranslatorBug: (message) => renderer.message(message),
    onNote: request.quiet ? undefined : (note) => renderer.message(wordedWith(note, cliNaming)),
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

function verbosity(request: RunRequest): Verbosity {
  return request.quiet ? "quiet" : request.verbose ? "verbose" : "normal";
}
