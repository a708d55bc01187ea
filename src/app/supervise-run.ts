// A planned run supervised: the backend started as its plan says (src/app/agent-run.ts made the plan),
// its stdout translated as it arrives, its limits watched, its end written as run.finished.
import { TRANSLATORS } from "../backends/registry.js";
import type { CanonicalEvent } from "../canonical/events.js";
import { serializeEvent } from "../canonical/serialize.js";
import { wordedWith } from "../core/errors.js";
import { fileErrorReason } from "../core/file-errors.js";
import type { Interruption, RunOutcome } from "../core/outcome.js";
import { tempFolderError } from "../core/temp-folder.js";
import type { OutputPipeline } from "../output/pipeline.js";
import type { RunHost } from "../run/host.js";
import { watchLimits } from "./limit-watch.js";
import { shownWarning } from "../run/redact.js";
import { onStopSignals } from "../run/stop-signals.js";
import { RunSupervisor, type OutputSink } from "../run/supervisor.js";
import type { RunPlan, RunSpec } from "./agent-run.js";
import { outputSchemaShown } from "../run/output-schema.js";

/** Where a supervised run's events go: redacted once, then to every sink, and what they are written to. */
export interface RunOutput {
  events: OutputPipeline;
  /** What the events are written to: the backend's stdout is paused while it needs draining. */
  output: OutputSink;
  /** agentstream's version, as run.started states it. */
  agentstreamVersion: string;
  /** Groups the events of one chunk of the backend's stdout (the CLI hands their lines to the system together). */
  batch?<T>(work: () => T): T;
}

/** How a run ended: its outcome (with what the CLI says of a launch failure), or that its reader went away first. */
export type OutcomeOrReaderGone =
  | {
      kind: "finished";
      outcome: RunOutcome;
      /** why a backend could not be started: its launch error's code */
      launchCode?: string;
      hint?: string;
    }
  | { kind: "stdout_closed" };

const NOT_STARTED = { backendExit: null, stderrTail: [] };

/** A started run: how it ends, and how to say its reader is gone (the backend is then stopped). */
export interface RunningAgent {
  ended: Promise<OutcomeOrReaderGone>;
  readerGone(): void;
}

/**
 * The model of usage its stream names none of: the backend's files are read once per session (a usage
 * stream of thousands of calls does not read them each time), and what they said is kept.
 */
function usageModelSource({
  definition,
  model,
  env,
  cwd,
}: RunPlan): (sessionId: string | undefined) => string | undefined {
  if (!definition.usageModel) return () => model;
  const ask = definition.usageModel.bind(definition);
  let asked: { sessionId: string | undefined; model: string | undefined } | undefined;
  return (sessionId) => {
    if (asked === undefined || (asked.model === undefined && asked.sessionId !== sessionId))
      asked = { sessionId, model: ask({ env, cwd, sessionId, ...(model !== undefined ? { model } : {}) }) };
    return asked.model;
  };
}

/** Start the planned backend, translate its stdout as it arrives, and end with run.finished. */
export function superviseRun(spec: RunSpec, host: RunHost, out: RunOutput): RunningAgent {
  let supervisor: RunSupervisor | undefined;
  let gone = false;
  const ended = supervise({ ...spec, host, out }, (created) => {
    supervisor = created;
    if (gone) created.readerGone();
  });
  return {
    ended,
    readerGone: () => {
      gone = true;
      supervisor?.readerGone();
    },
  };
}

/** One supervised run: what it is, its host, where its events go. */
interface Supervised extends RunSpec {
  host: RunHost;
  out: RunOutput;
}

async function supervise(run: Supervised, created: (supervisor: RunSupervisor) => void): Promise<OutcomeOrReaderGone> {
  const { plan } = run;
  // Before anything is written: a folder that cannot be made is refused as the check in planRun would have.
  plan.files?.make();
  try {
    writeFiles(plan);
    return await superviseBackend(run, created);
  } finally {
    // run.finished may be written: removing the files can only warn, never throw.
    const problem = plan.files?.remove();
    if (problem !== undefined) run.host.onWarning(problem);
  }
}

function writeFiles({ writtenFiles = [] }: RunPlan): void {
  for (const file of writtenFiles)
    try {
      file.write();
    } catch (err) {
      throw tempFolderError(`cannot write ${file.path}: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
    }
}

/** The usage file's text; when it was there but could not be read, the warning says why (usage then unknown). */
async function usageFileText(plan: RunPlan, host: RunHost): Promise<string | undefined> {
  const read = await plan.usageFile?.read();
  if (read === undefined || "stopped" in read) return undefined;
  if ("text" in read) return read.text;
  host.onWarning(
    `${plan.definition.displayName}'s usage file ${plan.usageFile!.path} was not read: ${read.problem}; the run's usage is unknown`,
  );
  return undefined;
}

async function superviseBackend(
  { plan, translation, limits, timing, host, out }: Supervised,
  created: (supervisor: RunSupervisor) => void,
): Promise<OutcomeOrReaderGone> {
  const { definition } = plan;
  let supervisor: RunSupervisor | undefined;
  const session = out.events.translate({
    from: definition.name,
    // The plan's definition translates: over ACP (--transport acp) it is not the registry's.
    translators: { create: () => definition.createTranslator(), detector: TRANSLATORS.detector },
    runId: host.runId,
    clock: host.clock,
    agentstreamVersion: out.agentstreamVersion,
    started: {
      mode: "run",
      command: plan.command,
      cwd: plan.cwd,
      ...(definition.transport !== undefined ? { transport: definition.transport } : {}),
      ...(plan.resumedFrom !== undefined ? { resumed_from: plan.resumedFrom } : {}),
      ...(plan.outputSchema
        ? { output_schema: outputSchemaShown(plan.outputSchema.schema, plan.outputSchema.via) }
        : {}),
    },
    ...(plan.outputSchema ? { outputSchema: plan.outputSchema.schema } : {}),
    includeRaw: translation.raw,
    deltas: translation.deltas,
    ...(plan.prompt !== undefined ? { prompt: plan.prompt } : {}),
    promptInStream: translation.promptInStream,
    liveDurations: true,
    model: usageModelSource(plan),
    maxLineBytes: translation.maxLineBytes,
    onTranslatorBug: host.onTranslatorBug,
    observe: observers(
      watchLimits(limits, {
        reached: (message) => supervisor?.limitReached(message),
        note: host.onNote,
        usageComplete: definition.createTranslator().usageComplete,
      }),
      requestsShown(plan),
    ),
    onNativeEvent: (event) => {
      if (definition.terminalTypes.has(event.type)) supervisor?.terminal();
    },
    ...(plan.driver
      ? { admit: plan.driver.read.bind(plan.driver), overlong: (preview) => plan.driver?.overlong?.(preview) }
      : {}),
  });

  const stop = host.earlyStop?.signal;
  if (stop) {
    // Stopped after the prompt was read (while pi was asked its version): the backend never started.
    host.earlyStop!.end();
    return { kind: "finished", outcome: await session.endChecked(NOT_STARTED, { kind: "signal", signal: stop }) };
  }
  if (!plan.executable.found) {
    const outcome = await session.endChecked(NOT_STARTED, undefined, {
      code: "backend_not_found",
      message: plan.executable.message,
    });
    return { kind: "finished", outcome, hint: plan.executable.hint };
  }
  const batch = out.batch ?? (<T>(work: () => T): T => work());
  supervisor = new RunSupervisor({
    spec: definition,
    file: plan.file,
    args: plan.args,
    cwd: plan.cwd,
    env: plan.env,
    redact: (text) => plan.redactor.text(text),
    ...timing,
    writer: out.output,
    onStderr: host.onStderr,
    stderrShown: host.stderrShown,
    onStatus: host.onStatus,
    processSignals: host.processSignals,
    abortSignal: host.abortSignal,
    ...(plan.driver ? { driver: plan.driver } : {}),
    onStdout: (chunk) => batch(() => session.write(chunk)),
    onDriverEvent: (event) => batch(() => session.note(event)),
    // The driver's word on the agent is a note: --quiet leaves it out.
    onDriverWarning: (words) => host.onNote?.((name) => shownWarning(wordedWith(words, name), plan.redactor)),
    onStdoutEnd: () => batch(() => session.flush()),
  });
  created(supervisor);
  // run() hears stop signals before it returns: handed over with no gap.
  const startedAt = performance.now();
  const running = supervisor.run();
  host.earlyStop?.end();
  const end = await running;
  switch (end.kind) {
    case "stdout_closed":
      return end;
    case "launch_failed":
      return {
        kind: "finished",
        outcome: await session.endChecked(NOT_STARTED, undefined, {
          code: "backend_not_found",
          message: end.message,
        }),
        launchCode: end.code,
        hint:
          end.code === "E2BIG"
            ? "shorten the prompt, the --backend-arg values or the environment: together they must fit the system's limit (getconf ARG_MAX)"
            : `check that ${plan.file} is a program that can run here, or point --bin / ${definition.binEnvVar} elsewhere`,
      };
    case "exited": {
      // Heard only while the answer is checked: the supervisor heard them until now.
      const stop = plan.outputSchema ? answerCheckStop(host, timing.timeoutMs, startedAt) : undefined;
      try {
        const outcome = await session.endChecked(
          { backendExit: end.backendExit, stderrTail: end.stderrTail, usageFile: await usageFileText(plan, host) },
          end.interruption,
          undefined,
          {
            ...(stop ? { stop: stop.signal } : {}),
            started: () => host.onStatus("checking the answer against the output schema"),
          },
        );
        return { kind: "finished", outcome };
      } finally {
        stop?.dispose();
      }
    }
  }
}

/** Every observer given, in order (none: undefined). */
function observers(
  ...all: (((event: CanonicalEvent) => void) | undefined)[]
): ((event: CanonicalEvent) => void) | undefined {
  const given = all.filter((o) => o !== undefined);
  if (given.length === 0) return undefined;
  return (event) => {
    for (const observe of given) observe(event);
  };
}

/** The driver is told each permission request as the stream shows it (one JSON line, redacted): its answerer is given that. */
function requestsShown({ driver, redactor }: RunPlan): ((event: CanonicalEvent) => void) | undefined {
  const shown = driver?.requestShown?.bind(driver);
  if (shown === undefined) return undefined;
  return (event) => {
    if (event.type === "input.requested") shown(event.request_id, redactor.jsonLine(serializeEvent(event)));
  };
}

/**
 * What stops the check of the answer (--output-schema), which runs once the backend ended: the rest of
 * --timeout, a stop signal (the CLI), the caller's AbortSignal (the library). Its reason is the interruption.
 */
function answerCheckStop(
  host: RunHost,
  timeoutMs: number | undefined,
  startedAt: number,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = (why: Interruption): void => controller.abort(why);
  const left = timeoutMs === undefined ? undefined : Math.max(0, timeoutMs - (performance.now() - startedAt));
  const timer = left === undefined ? undefined : setTimeout(() => stop({ kind: "timeout" }), left);
  const unhear =
    host.processSignals !== false ? onStopSignals((signal) => stop({ kind: "signal", signal })) : undefined;
  const onAbort = (): void => stop({ kind: "aborted" });
  host.abortSignal?.addEventListener("abort", onAbort, { once: true });
  if (host.abortSignal?.aborted) onAbort();
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      unhear?.();
      host.abortSignal?.removeEventListener("abort", onAbort);
    },
  };
}
