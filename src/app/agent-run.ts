// Planning a run, the step the CLI's `run`, the library's run() and any command that runs agents share:
// the request's agent checked, its executable found, its argv built and its prompt read, before anything
// starts. The plan is all src/app/supervise-run.ts needs to start and watch the backend.
import type { BackendDefinition } from "../backends/definition.js";
import { withTransport } from "../backends/acp/over-acp.js";
import { reachBackend } from "../backends/native-input.js";
import { reaches } from "../backends/support.js";
import { BACKENDS, backendNamed } from "../backends/registry.js";
import type { Redactor } from "../core/redactor.js";
import { readContinuation } from "../run/continue-from.js";
import { checkArguments } from "../core/option-row.js";
import { OptionError } from "../core/errors.js";
import { checkExecutableNamed, findExecutable, type ExecutableLookup } from "../run/executable.js";
import type { Driver } from "../run/driver.js";
import { part, type Part, type RunRequest } from "./request.js";
import { OPTIONS } from "./options.js";
import { askBackend } from "./portable-request.js";
import { promptAsShown, workingDirectory } from "../run/prompt.js";
import { PROMPT_LEFT_OUT } from "../core/prompt-text.js";
import { redactSecrets, runRedactor } from "../run/redact.js";
import { NO_STOPS, type StopWatch } from "../run/stop-signals.js";
import { planWrittenFile, type WrittenFile } from "../run/written-file.js";
import { checkArgvFits } from "./argv-fits.js";
import type { OutputSchema } from "../run/output-schema.js";
import { RunFiles } from "../run/run-files.js";
import { planUsageFile, type UsageFile } from "../run/usage-file.js";

/**
 * What to run: the run request's agent and limits (src/app/options.ts, rows of lifetime agent and limits),
 * each optional here: planRun fills in what the request's defaults would.
 */
export type AgentRequest = Partial<Part<"run", "agent"> & Part<"run", "limits">>;

/** What planning reads of a run's request: its agent and limits, how long a probe may take, whether the prompt is recorded. */
export type PlanRequest = AgentRequest & Pick<RunRequest, "graceMs"> & Partial<Pick<RunRequest, "promptInStream">>;

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
  request: PlanRequest,
  readPrompt: (backend: string) => string | Promise<string>,
  stops: StopWatch = NO_STOPS,
): Promise<RunPlan> {
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
  const recorded = request.promptInStream !== false;
  const backendArgs = request.backendArgs ?? [];
  const promptTerminator = executable.found
    ? await definition.promptTerminator(executable.path, prompt, { env, graceMs: request.graceMs, stops })
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

/**
 * A run ready to start: its plan (the request checked, the command built), how it is translated, limited
 * and timed, and the outputs its request asks for (opened by the session, src/app/session.ts).
 */
export interface RunSpec {
  plan: RunPlan;
  translation: Part<"run", "translation">;
  limits: Part<"run", "limits">;
  timing: Part<"run", "timing">;
  outputs: Part<"run", "outputs">;
}

/**
 * A run's request made ready to start, the same for the CLI, the library and any command that runs
 * agents: its agent planned (options checked, executable found, argv built; the prompt read once the
 * options are known good), and its translation, limits, times and outputs as the request holds them.
 */
export async function prepareRun(
  request: RunRequest,
  readPrompt: (backend: string) => string | Promise<string>,
  stops?: StopWatch,
): Promise<RunSpec> {
  const limits = part("run", request, "limits");
  const plan = await planRun(
    { ...part("run", request, "agent"), ...limits, graceMs: request.graceMs, promptInStream: request.promptInStream },
    readPrompt,
    stops,
  );
  return {
    plan,
    translation: part("run", request, "translation"),
    limits,
    timing: part("run", request, "timing"),
    outputs: part("run", request, "outputs"),
  };
}
