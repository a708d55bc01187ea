// Running an agent, the steps the CLI's `run` and the library's run() share:
// plan it (options checked, executable found, argv built) before anything
// starts, then supervise the backend and translate its stdout as it arrives.
import { resolve } from "node:path";
import type { Transport } from "../backends/acp/facet.js";
import type { BackendDefinition } from "../backends/definition.js";
import { withTransport } from "../backends/acp/over-acp.js";
import { reachBackend } from "../backends/native-input.js";
import type { ApprovalsMode, PermissionCallback, PortableRequest } from "../backends/request.js";
import { fitRequest } from "../backends/request-fits.js";
import { reaches } from "../backends/support.js";
import { BACKENDS, TRANSLATORS, backendNamed } from "../backends/registry.js";
import type { Clock } from "../core/clock.js";
import type { Interruption, RunOutcome } from "../core/outcome.js";
import type { Redactor } from "../core/redactor.js";
import type { OutputPipeline } from "../output/pipeline.js";
import { readContinuation } from "../run/continue-from.js";
import { checkPassable } from "../core/argv-value.js";
import { OptionError } from "../core/errors.js";
import { fileErrorReason } from "../core/file-errors.js";
import { tempFolderError } from "../core/temp-folder.js";
import { checkExecutableNamed, findExecutable, type ExecutableLookup } from "../run/executable.js";
import type { Driver } from "../run/driver.js";
import { watchLimits, type RunLimits } from "../run/limits.js";
import type { Drainable } from "../run/pipe-throttle.js";
import { promptAsShown, workingDirectory } from "../run/prompt.js";
import { redactSecrets, runRedactor, shownWarning } from "../run/redact.js";
import { NO_STOPS, onStopSignals, type EarlyStop, type StopWatch } from "../run/stop-signals.js";
import { RunSupervisor, type OutputSink } from "../run/supervisor.js";
import { planWrittenFile, type WrittenFile } from "../run/written-file.js";
import { checkArgvFits } from "./argv-fits.js";
import { loadOutputSchema, outputSchemaShown, type OutputSchema } from "./output-schema.js";
import { RunFiles } from "../run/run-files.js";
import { planUsageFile, type UsageFile } from "../run/usage-file.js";
import { VERSION } from "../version.js";

/** What to run: the backend, the prompt and the backend's own options. */
export interface AgentRequest {
  /** Required, unless `continueFrom` names a stream (whose backend it then must be). */
  backend?: string;
  /** A recorded canonical stream to continue: its backend and session (run.finished.resume, else its session_id). */
  continueFrom?: string;
  /** The backend executable (default: the backend's AGENTSTREAM_*_BIN variable, else its names on PATH). */
  bin?: string;
  /** Where the backend runs (default: the current directory). */
  cwd?: string;
  model?: string;
  provider?: string;
  workdir?: string;
  /** False asks the backend to stop for the user's input (default true). */
  autoMode?: boolean;
  /** More arguments for the backend, before the prompt. */
  backendArgs?: string[];
  /** The backend's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** How the agent is driven: its own stream (native, the default), or ACP where it speaks it. */
  transport?: Transport;
  /** --max-turns / --max-tokens / --max-cost-usd, checked by the caller (a native limit is passed where it counts the same). */
  limits?: RunLimits;
  /** A JSON Schema the final answer must match (an object, or the path of a JSON file): docs/output-schema.md. */
  outputSchema?: object | string;
  /** Answers a permission request live, before the rules (a backend that asks live: acp). */
  onPermissionRequest?: PermissionCallback;
  /** Tool rules, portable names or the backend's own: NAME or NAME(PREFIX). */
  allowTools?: readonly string[];
  denyTools?: readonly string[];
  approvals?: ApprovalsMode;
  /** The session to continue. */
  resume?: string;
}

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
  /** The command line as run.started shows it: secret values hidden. */
  command: string[];
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
  if (request.resume !== undefined)
    throw new OptionError((name) => `${name("resume")} and ${name("continueFrom")} exclude each other`);
  const found = await readContinuation(request.continueFrom, stops);
  if (request.backend !== undefined && request.backend !== found.backend)
    throw new OptionError(
      (name) =>
        `${name("continueFrom")} ${request.continueFrom}: the stream is ${found.backend}'s, not ${request.backend}'s`,
    );
  return { backend: found.backend, resume: found.sessionId };
}

/** The request to the backend, as the library's options give it (the session from --continue-from, if any). */
function portableRequestOf(request: AgentRequest, resume: string | undefined): PortableRequest {
  return {
    model: request.model,
    provider: request.provider,
    workdir: request.workdir === undefined ? undefined : resolve(request.workdir),
    autoMode: request.autoMode,
    allowTools: request.allowTools,
    denyTools: request.denyTools,
    approvals: request.approvals,
    resume,
    maxTurns: request.limits?.maxTurns,
    maxTokens: request.limits?.maxTokens,
    maxCostUsd: request.limits?.maxCostUsd,
    backendArgs: request.backendArgs ?? [],
    onPermissionRequest: request.onPermissionRequest,
  };
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
  probing: { graceMs: number; stops?: StopWatch },
): Promise<RunPlan> {
  const stops = probing.stops ?? NO_STOPS;
  const continued = await continuing(request, stops);
  // Only the library can be given these with a NUL byte (a command line cannot hold one).
  if (request.bin !== undefined) checkPassable("bin", request.bin);
  if (request.cwd !== undefined) checkPassable("cwd", request.cwd);
  const definition = withTransport(backendNamed(continued.backend), request.transport, BACKENDS);
  const callerEnv = request.env ?? process.env;
  checkExecutableNamed(definition, request.bin, callerEnv);
  const asked = portableRequestOf(request, continued.resume);
  // The schema asked is read after the request was checked: a backend's lack of it is said first.
  const rules = fitRequest(definition, { ...asked, outputSchema: request.outputSchema });
  // Read before the prompt: a bad schema file is said before stdin is waited for.
  const schema = request.outputSchema === undefined ? undefined : await loadOutputSchema(request.outputSchema, stops);
  if (schema) asked.outputSchema = { schema: schema.schema, text: schema.text, strictDraft07: schema.strictDraft07 };
  const native: PortableRequest = { ...asked, ...rules };
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
  const prompt = reached.prompt(await readPrompt(definition.name));
  const backendArgs = asked.backendArgs ?? [];
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
    prompt: promptAsShown(redactor.text(prompt)),
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
    ...(definition.driver ? { driver: definition.driver(asked, prompt, cwd, env) } : {}),
    command,
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

/** Where a supervised run's events and the backend's stderr go, and how it may be stopped. */
export interface RunIo {
  runId: string;
  clock: Clock;
  includeRaw?: boolean;
  deltas?: boolean;
  maxLineBytes?: number;
  timeoutMs?: number;
  lingerMs?: number;
  graceMs: number;
  /** Where each canonical event goes, in order, as soon as it exists: redacted once, then to every sink. */
  events: OutputPipeline;
  /** What the events are written to: the backend's stdout is paused while it needs draining. */
  output: OutputSink;
  /** Groups the events of one chunk of the backend's stdout (the CLI hands their lines to the system together). */
  batch?<T>(work: () => T): T;
  onStderr(chunk: Buffer): void;
  /** Where onStderr shows the backend's stderr: it is paused while that needs draining. */
  stderrShown: Drainable;
  onStatus(text: string): void;
  onTranslatorBug(message: string): void;
  /** The run's limits, watched on its events; crossing one stops the backend (run.finished: failed, budget). */
  limits?: RunLimits;
  /** A note for the user (a cost that cannot be known), said once. */
  onNote?(text: string): void;
  /** Something that went wrong beside the run (its usage file not read, its temporary folder not removed): never its outcome. */
  onWarning(text: string): void;
  /** Stop on SIGINT/SIGTERM/SIGHUP to this process (the CLI); the library leaves them to its caller. */
  processSignals: boolean;
  /** The CLI's stop signals heard before the spawn: one that came ends the run cancelled; the supervisor takes over from them. */
  earlyStop?: EarlyStop;
  abortSignal?: AbortSignal;
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
export function superviseRun(plan: RunPlan, io: RunIo): RunningAgent {
  let supervisor: RunSupervisor | undefined;
  let gone = false;
  const ended = supervise(plan, io, (created) => {
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

async function supervise(
  plan: RunPlan,
  io: RunIo,
  created: (supervisor: RunSupervisor) => void,
): Promise<OutcomeOrReaderGone> {
  // Before anything is written: a folder that cannot be made is refused as the check in planRun would have.
  plan.files?.make();
  try {
    writeFiles(plan);
    return await superviseBackend(plan, io, created);
  } finally {
    // run.finished may be written: removing the files can only warn, never throw.
    const problem = plan.files?.remove();
    if (problem !== undefined) io.onWarning(problem);
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
async function usageFileText(plan: RunPlan, io: RunIo): Promise<string | undefined> {
  const read = await plan.usageFile?.read();
  if (read === undefined || "stopped" in read) return undefined;
  if ("text" in read) return read.text;
  io.onWarning(
    `${plan.definition.displayName}'s usage file ${plan.usageFile!.path} was not read: ${read.problem}; the run's usage is unknown`,
  );
  return undefined;
}

async function superviseBackend(
  plan: RunPlan,
  io: RunIo,
  created: (supervisor: RunSupervisor) => void,
): Promise<OutcomeOrReaderGone> {
  const { definition } = plan;
  let supervisor: RunSupervisor | undefined;
  const session = io.events.translate({
    from: definition.name,
    // The plan's definition translates: over ACP (--transport acp) it is not the registry's.
    translators: { create: () => definition.createTranslator(), detector: TRANSLATORS.detector },
    runId: io.runId,
    clock: io.clock,
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
    includeRaw: io.includeRaw,
    deltas: io.deltas,
    liveDurations: true,
    model: usageModelSource(plan),
    maxLineBytes: io.maxLineBytes,
    onTranslatorBug: io.onTranslatorBug,
    observe: watchLimits(io.limits, {
      reached: (message) => supervisor?.limitReached(message),
      note: io.onNote,
      usageComplete: definition.createTranslator().usageComplete,
    }),
    onNativeEvent: (event) => {
      if (definition.terminalTypes.has(event.type)) supervisor?.terminal();
    },
    ...(plan.driver ? { admit: plan.driver.read.bind(plan.driver) } : {}),
  });

  const stop = io.earlyStop?.signal;
  if (stop) {
    // Stopped after the prompt was read (while pi was asked its version): the backend never started.
    io.earlyStop!.end();
    return { kind: "finished", outcome: await session.endChecked(NOT_STARTED, { kind: "signal", signal: stop }) };
  }
  if (!plan.executable.found) {
    const outcome = await session.endChecked(NOT_STARTED, undefined, {
      code: "backend_not_found",
      message: plan.executable.message,
    });
    return { kind: "finished", outcome, hint: plan.executable.hint };
  }
  const batch = io.batch ?? (<T>(work: () => T): T => work());
  supervisor = new RunSupervisor({
    spec: definition,
    file: plan.file,
    args: plan.args,
    cwd: plan.cwd,
    env: plan.env,
    redact: (text) => plan.redactor.text(text),
    timeoutMs: io.timeoutMs,
    lingerMs: io.lingerMs,
    graceMs: io.graceMs,
    writer: io.output,
    processSignals: io.processSignals,
    abortSignal: io.abortSignal,
    ...(plan.driver ? { driver: plan.driver } : {}),
    onStdout: (chunk) => batch(() => session.write(chunk)),
    onDriverEvent: (event) => batch(() => session.note(event)),
    onDriverWarning: (text) => io.onWarning(shownWarning(text, plan.redactor)),
    onStdoutEnd: () => batch(() => session.flush()),
    onStderr: io.onStderr,
    stderrShown: io.stderrShown,
    onStatus: io.onStatus,
  });
  created(supervisor);
  // run() hears stop signals before it returns: handed over with no gap.
  const startedAt = performance.now();
  const running = supervisor.run();
  io.earlyStop?.end();
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
      const stop = plan.outputSchema ? answerCheckStop(io, startedAt) : undefined;
      try {
        const outcome = await session.endChecked(
          { backendExit: end.backendExit, stderrTail: end.stderrTail, usageFile: await usageFileText(plan, io) },
          end.interruption,
          undefined,
          {
            ...(stop ? { stop: stop.signal } : {}),
            started: () => io.onStatus("checking the answer against the output schema"),
          },
        );
        return { kind: "finished", outcome };
      } finally {
        stop?.dispose();
      }
    }
  }
}

/**
 * What stops the check of the answer (--output-schema), which runs once the backend ended: the rest of
 * --timeout, a stop signal (the CLI), the caller's AbortSignal (the library). Its reason is the interruption.
 */
function answerCheckStop(io: RunIo, startedAt: number): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = (why: Interruption): void => controller.abort(why);
  const left = io.timeoutMs === undefined ? undefined : Math.max(0, io.timeoutMs - (performance.now() - startedAt));
  const timer = left === undefined ? undefined : setTimeout(() => stop({ kind: "timeout" }), left);
  const unhear = io.processSignals !== false ? onStopSignals((signal) => stop({ kind: "signal", signal })) : undefined;
  const onAbort = (): void => stop({ kind: "aborted" });
  io.abortSignal?.addEventListener("abort", onAbort, { once: true });
  if (io.abortSignal?.aborted) onAbort();
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      unhear?.();
      io.abortSignal?.removeEventListener("abort", onAbort);
    },
  };
}
