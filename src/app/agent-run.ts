// Running an agent, the steps the CLI's `run` and the library's run() share:
// plan it (options checked, executable found, argv built) before anything
// starts, then supervise the backend and translate its stdout as it arrives.
import type { BackendDefinition } from "../backends/definition.js";
import { withTransport } from "../backends/acp/over-acp.js";
import { reachBackend } from "../backends/native-input.js";
import { reaches } from "../backends/support.js";
import { BACKENDS, TRANSLATORS, backendNamed } from "../backends/registry.js";
import type { CanonicalEvent } from "../canonical/events.js";
import { serializeEvent } from "../canonical/serialize.js";
import type { Interruption, RunOutcome } from "../core/outcome.js";
import type { Redactor } from "../core/redactor.js";
import type { OutputPipeline } from "../output/pipeline.js";
import { readContinuation } from "../run/continue-from.js";
import { checkArguments } from "../core/option-row.js";
import { OptionError, wordedWith } from "../core/errors.js";
import { fileErrorReason } from "../core/file-errors.js";
import { tempFolderError } from "../core/temp-folder.js";
import { checkExecutableNamed, findExecutable, type ExecutableLookup } from "../run/executable.js";
import type { Driver } from "../run/driver.js";
import { watchLimits } from "./limit-watch.js";
import type { Part } from "./request.js";
import { OPTIONS } from "./options.js";
import { askBackend } from "./portable-request.js";
import type { RunHost } from "../run/host.js";
import { promptAsShown, workingDirectory } from "../run/prompt.js";
import { PROMPT_LEFT_OUT } from "../core/prompt-text.js";
import { redactSecrets, runRedactor, shownWarning } from "../run/redact.js";
import { NO_STOPS, onStopSignals, type StopWatch } from "../run/stop-signals.js";
import { RunSupervisor, type OutputSink } from "../run/supervisor.js";
import { planWrittenFile, type WrittenFile } from "../run/written-file.js";
import { checkArgvFits } from "./argv-fits.js";
import { outputSchemaShown, type OutputSchema } from "../run/output-schema.js";
import { RunFiles } from "../run/run-files.js";
import { planUsageFile, type UsageFile } from "../run/usage-file.js";
import { VERSION } from "../version.js";

/**
 * What to run: the run request's agent and limits (src/app/options.ts, rows of lifetime agent and limits),
 * each optional here: planRun fills in what the request's defaults would.
 */
export type AgentRequest = Partial<Part<"run", "agent"> & Part<"run", "limits">>;

/** A run checked and ready to start. */
export interface RunPlan {
  definition: BackendDefinition;
  cwd: string;
  env: NodeJS.ProcessEnv;
  executable: ExecutableLookup;
  /** The executable, or the name it would have had when it was not found. */
  file: string;
  args: string[];
  /** Drives a backend over its stdin and stdout (ACP); absent, the backend is launched with argv and read. */
  driver?: Driver;
  /** The command line as run.started shows it: secret values hidden, the prompt left out where it is not recorded. */
  command: string[];
  /** The prompt as the caller gave it (before any words an option adds), for prompt.submitted; absent where it is not recorded. */
  prompt?: string;
  /** Hides what the backend was given as a secret, in everything written. */
  redactor: Redactor;
  /** The run's own temporary folder, holding the files below: made at the start, removed when the run ends. */
  files?: RunFiles;
  /** Where the backend writes its usage (a backend whose `supports.usageFile` reaches it): read once it exited. */
  usageFile?: UsageFile;
  /** Files the options give the backend (Gemini CLI's policy): written at the start. */
  writtenFiles?: WrittenFile[];
  /** The session it continues (run.started.resumed_from). */
  resumedFrom?: string;
  /** The model asked for (--model): what usage naming none is of, unless the backend's own files say more. */
  model?: string;
  /** --output-schema: the schema, and how the backend was given it (natively, or in the prompt). */
  outputSchema?: PlannedOutputSchema;
}

export interface PlannedOutputSchema {
  schema: OutputSchema;
  via: "native" | "prompt";
}

/** The backend and session to continue: --backend and --resume, or what --continue-from's stream says. */
async function continuing(request: AgentRequest, stops: StopWatch): Promise<{ backend: string; resume?: string }> {
  if (request.continueFrom === undefined) {
    if (request.backend === undefined)
      throw new OptionError((name) => `${name("backend")} is required (or ${name("continueFrom")} FILE)`);
    return { backend: request.backend, resume: request.resume };
  }
  const found = await readContinuation(request.continueFrom, stops);
  if (request.backend !== undefined && request.backend !== found.backend)
    throw new OptionError(
      (name) =>
        `${name("continueFrom")} ${request.continueFrom}: the stream is ${found.backend}'s, not ${request.backend}'s`,
    );
  return { backend: found.backend, resume: found.sessionId };
}

/**
 * Check the request and build the command, before anything is started, in one pass: the values no backend
 * can take, then what this backend lacks (refused once, over the whole request), then the rules in its own
 * names; the backend is reached once, and one redactor hides the run's secrets everywhere, the command
 * run.started shows included. The prompt is read after the options are checked (a bad flag is said before
 * stdin is waited for). Throws a UsageError.
 */
export async function planRun(
  request: AgentRequest,
  readPrompt: (backend: string) => string | Promise<string>,
  probing: { graceMs: number; stops?: StopWatch; promptInStream?: boolean },
): Promise<RunPlan> {
  const stops = probing.stops ?? NO_STOPS;
  const continued = await continuing(request, stops);
  // The session from --continue-from, if any, is the one resumed.
  const given = { ...request, resume: continued.resume };
  // What no backend can be given (a name read as a flag, a NUL byte: only the library can give one), by the rows.
  checkArguments(OPTIONS.rows, given);
  const definition = withTransport(backendNamed(continued.backend), request.transport, BACKENDS);
  const callerEnv = request.env ?? process.env;
  checkExecutableNamed(definition, request.bin, callerEnv);
  // Read before the prompt: a bad schema file is said before stdin is waited for.
  const { driven, native } = await askBackend(definition, given, { stops });
  const schema = driven.outputSchema;
  const cwd = workingDirectory(request.cwd);
  // Variables the options set (OpenCode's rules) are none of those that find the executable.
  const executable = findExecutable(definition, request.bin, callerEnv);
  // The run's files (a usage file, a rules file) only for an executable that was found.
  const files = executable.found ? new LazyRunFiles() : undefined;
  const usageFile = files && reaches(definition.supports.usageFile) ? planUsageFile(files.get()) : undefined;
  if (usageFile) native.usageFile = usageFile.path;
  const written: WrittenFile[] = [];
  const reached = reachBackend(definition, native, callerEnv, (input) => {
    if (!files) return undefined;
    const file = planWrittenFile(input.name, input.text, files.get());
    written.push(file);
    return file.path;
  });
  // Variables the options set (OpenCode's rules) join the caller's environment.
  const env = Object.keys(reached.env).length > 0 ? { ...callerEnv, ...reached.env } : callerEnv;
  // An option a backend takes in words (--output-schema without a native means) joins the prompt here.
  const caller = await readPrompt(definition.name);
  const prompt = reached.prompt(caller);
  const recorded = probing.promptInStream !== false;
  const backendArgs = request.backendArgs ?? [];
  const promptTerminator = executable.found
    ? await definition.promptTerminator(executable.path, prompt, { env, graceMs: probing.graceMs, stops })
    : false;
  const file = executable.found ? executable.path : (executable.tried ?? definition.executableNames[0]!);
  const args = reached.argv({ prompt, promptTerminator, backendArgs });
  // What the system would refuse to start (E2BIG) is refused here, before run.started.
  checkArgvFits(definition, file, args, env, { prompt, reached, backendArgs });
  const redactor = runRedactor(backendArgs, env);
  // A long prompt is shortened there once its secrets are hidden; the backend gets it whole.
  const shown = {
    prompt: recorded ? promptAsShown(redactor.text(prompt)) : PROMPT_LEFT_OUT,
    promptTerminator,
    backendArgs: redactSecrets(backendArgs),
  };
  const command = [file, ...reached.argv(shown)].map((arg) => redactor.text(arg));
  return {
    definition,
    cwd,
    env,
    executable,
    file,
    args,
    // The driver is given the request as asked: its rules in portable names.
    ...(definition.driver ? { driver: definition.driver(driven, prompt, cwd, env) } : {}),
    command,
    ...(recorded ? { prompt: caller } : {}),
    redactor,
    ...(files?.made ? { files: files.get() } : {}),
    ...(usageFile ? { usageFile } : {}),
    ...(written.length > 0 ? { writtenFiles: written } : {}),
    ...(continued.resume !== undefined ? { resumedFrom: continued.resume } : {}),
    ...(request.model !== undefined ? { model: request.model } : {}),
    ...(schema ? { outputSchema: { schema, via: reached.inPrompt("outputSchema") ? "prompt" : "native" } } : {}),
  };
}

/** The run's temporary folder, named (and the temporary folder checked) only once a file needs it. */
class LazyRunFiles {
  private files: RunFiles | undefined;

  get made(): boolean {
    return this.files !== undefined;
  }

  get(): RunFiles {
    this.files ??= new RunFiles();
    return this.files;
  }
}

/** A run: its plan (the request checked, the command built), and how it is translated, limited and timed. */
export interface RunSpec {
  plan: RunPlan;
  translation: Part<"run", "translation">;
  limits: Part<"run", "limits">;
  timing: Part<"run", "timing">;
}

/** Where a supervised run's events go: redacted once, then to every sink, and what they are written to. */
export interface RunOutput {
  events: OutputPipeline;
  /** What the events are written to: the backend's stdout is paused while it needs draining. */
  output: OutputSink;
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
    agentstreamVersion: VERSION,
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
