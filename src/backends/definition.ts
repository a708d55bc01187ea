import type { Driver } from "../run/driver.js";
import type { NativeEvent, Translator } from "../core/translator.js";
import type { LaunchSpec } from "../run/launch-spec.js";
import type { StopWatch } from "../run/stop-signals.js";

/** What the user asked the backend to do, before it becomes argv. */
export interface BackendRequest {
  prompt: string;
  model?: string;
  provider?: string;
  /** The backend's own working-directory flag (absolute), where it has one. */
  workdir?: string;
  /** False asks the backend to stop for the user's input (--no-auto-mode). */
  autoMode: boolean;
  /** Passed through as given, before the prompt. */
  backendArgs: string[];
  /** --max-cost-usd, for a backend that has the same limit (in USD of its own reported cost). */
  maxCostUsd?: number;
  /** Put `--` before the prompt, so a prompt starting with "-" stays a prompt. */
  promptTerminator: boolean;
  /** Where the backend is to write its usage file (set by run for a backend with `writesUsageFile`). */
  usageFile?: string;
  /** --allow-tool, --deny-tool, --approvals, --resume: checked against the backend's `permissions`, names native. */
  permissions?: PermissionRequest;
  /** --output-schema, for a backend with `outputSchema` (native); the others get it in the prompt instead. */
  outputSchema?: OutputSchemaRequest;
}

/** --output-schema as a backend with a native means is given it. */
export interface OutputSchemaRequest {
  /** The JSON Schema, parsed. */
  schema: object;
  /** The schema as compact JSON text (for a flag that takes it inline: Claude Code's --json-schema). */
  text: string;
  /** Where run wrote it, for a backend whose `outputSchema.file` is set (Codex's --output-schema FILE). */
  file?: string;
}

/**
 * How a backend takes --output-schema natively. Absent: agentstream adds an instruction with the schema to the
 * prompt (docs/output-schema.md). Either way the answer is validated by agentstream when the run ends.
 */
export interface OutputSchemaSupport {
  /** Its native spelling, as the docs show it: "--json-schema JSON", "--output-schema FILE". */
  native: string;
  /** The backend reads the schema from a file: run writes it in the run's temporary folder (removed when the run ends) and names it in `OutputSchemaRequest.file`. */
  file?: true;
  /** Whether its own validator takes this schema (Claude Code's is draft-07, strict); absent: every schema. One it does not take goes by the prompt. */
  takes?(schema: object): boolean;
}

/** What may tell the model of a run's usage where the backend's stream names none. */
export interface UsageModelContext {
  /** The model asked for (`--model`), as given. */
  model?: string;
  /** The backend's environment (where its config and session records are). */
  env: NodeJS.ProcessEnv;
  /** Where the backend runs. */
  cwd: string;
  /** The session, once the stream named it. */
  sessionId?: string;
}

/**
 * The native types a translator knows, each with the top-level fields it reads.
 * A type it keeps whole as `backend.event` by design reads none. The live suite
 * checks new releases against it (test/live/support/drift.ts).
 */
export type NativeCatalog = Readonly<Record<string, readonly string[]>>;

/** What probing an executable before the run may use. */
export interface ProbeContext {
  env: NodeJS.ProcessEnv;
  /** How long a stopped probe gets before it is killed. */
  graceMs: number;
  stops: StopWatch;
}

// ---- Permissions and continuing a run (run --allow-tool, --deny-tool, --approvals, --resume) ----

/** Tool names every backend is asked in (`--allow-tool shell`): each backend maps them to its own. */
export const PORTABLE_TOOLS = ["shell", "read", "write", "edit", "web_fetch", "web_search"] as const;
export type PortableTool = (typeof PORTABLE_TOOLS)[number];
/** never: a request that needs a human ends the run needs_input; auto: the backend's own auto-approval. */
export const APPROVALS_MODES = ["never", "auto"] as const;
export type ApprovalsMode = (typeof APPROVALS_MODES)[number];

/** How one kind of rule reaches the backend (its native spelling, shown in the README), or what it lacks. */
export type NativeMeans = { native: string } | { lacks: string };

/** What a backend enforces natively of the permission and resume options; anything else is refused before start. */
export interface PermissionSupport {
  /** Each portable name as the backend's own tool name; a portable name absent here is refused. */
  tools: Partial<Record<PortableTool, string>>;
  allow: NativeMeans;
  deny: NativeMeans;
  /** Where only some native names can be denied (Codex turns tools off by feature): those names. */
  deniable?: readonly string[];
  /**
   * Where rules name permission kinds rather than tools (Copilot CLI): each of its tool.started names
   * a rule may be given in, as the kind that governs that tool, or why no rule can.
   */
  ruleKinds?: Readonly<Record<string, NativeMeans>>;
  /** Whether a rule may carry an argument prefix in parentheses, such as `Bash(git *)`. */
  argumentPrefix: boolean;
  /** Each --approvals mode it has, as its native spelling; absent modes are refused with `approvalsLack`. */
  approvals: Partial<Record<ApprovalsMode, string>>;
  approvalsLack?: string;
  resume: NativeMeans;
  /** The text of a rules file the backend reads (Gemini CLI's policy), if these rules need one: run writes it for the run. */
  rulesFile?: (asked: PermissionRequest) => { text: string; extension: string } | undefined;
  /** Variables the backend reads these rules from (OpenCode's OPENCODE_PERMISSION), given its environment. */
  env?: (asked: PermissionRequest, env: NodeJS.ProcessEnv) => Record<string, string> | undefined;
}

/** The permission options of one run, checked and in the backend's own tool names. */
export interface PermissionRequest {
  allowTools: string[];
  denyTools: string[];
  approvals?: ApprovalsMode;
  /** The session to continue. */
  resume?: string;
  /** Where run wrote the backend's `rulesFile` for this run. */
  rulesFile?: string;
}

// ---- end of permissions ----

/** The options of `agentstream run` that only some backends have. */
export type CommonFlag = "model" | "provider" | "workdir" | "noAutoMode";

/**
 * Everything agentstream knows of one agent: how it is launched and stopped,
 * which of the common flags it takes, how its stream is translated and told
 * apart from the others'. One per folder under src/backends/, listed in the
 * registry.
 */
export interface BackendDefinition<Name extends string = string, Protocol extends string = string> extends LaunchSpec {
  /** The name of --backend / --from and of every event's `backend`. */
  name: Name;
  /** Backends that write the same protocol share one translator (pi and Atomic). */
  protocol: Protocol;
  /** The common flags it takes, each with what it becomes on the backend's command line (shown in --help). */
  flags: Partial<Record<CommonFlag, string>>;
  /** Why a common flag it lacks is refused, and what to do instead, by flag. */
  refusalHints?: Partial<Record<CommonFlag, string>>;
  /** --allow-tool, --deny-tool, --approvals and --resume: what it enforces natively (README "Permissions and continuing a run"). */
  permissions: PermissionSupport;
  /**
   * --output-schema: how it takes the schema natively (argv then reads `request.outputSchema`), and its
   * translator hands the native structured result to the finish (`Outcome.structured`). Absent: the prompt path.
   */
  outputSchema?: OutputSchemaSupport;
  /** The backend's argv (without the executable): no shell, the prompt one argument (unless a driver takes it). */
  argv(request: BackendRequest): string[];
  /**
   * A backend driven over a protocol on its stdin and stdout (ACP): the driver of one run, given the
   * prompt and the rules, in `cwd`. Absent: it is launched with argv and read (the argv driver).
   */
  driver?(request: BackendRequest, cwd: string): Driver;
  /**
   * Whether `--` goes before this prompt. May probe the executable (pi's
   * version: supervised, stopped by a stop signal) and may refuse the prompt with a UsageError.
   */
  promptTerminator(executable: string, prompt: string, probe: ProbeContext): boolean | Promise<boolean>;
  /** The backend's native terminal events: after one, the run's outcome is known. */
  terminalTypes: ReadonlySet<string>;
  /** Native event types of this protocol: a stream whose first known event has one is this protocol's (the registry's order breaks ties). */
  nativeTypes?: ReadonlySet<string>;
  /** What its translator knows of the native stream; absent where none was declared. */
  nativeCatalog?: NativeCatalog;
  /**
   * Native types other formats write too ("text", "error"): an event of one shows this protocol only when
   * `ownShape` says its fields are this protocol's; otherwise it is only a hint, the guess if nothing else shows.
   */
  sharedTypes?: ReadonlySet<string>;
  ownShape?(event: NativeEvent): boolean;
  /** Whether an event is surely this protocol's by its content, whatever its type (OpenCode's `error` and `text`, which EvoScientist writes too). */
  claims?: (event: NativeEvent) => boolean;
  /** For backends that share a protocol: how their streams differ (a fresh one per stream). */
  tellApart?: () => MemberDetector;
  createTranslator(): Translator;
  /**
   * The model of its usage where its stream names none (Codex, EvoScientist, OpenCode): from the model asked
   * for, or the backend's own config or session record. Asked at a usage that needs it, until it answers.
   * Absent: the model asked for, as given.
   */
  usageModel?(context: UsageModelContext): string | undefined;
  /**
   * The backend writes what its stream leaves out (token counts) to a file it is told of: run names a
   * fresh one in the request (`usageFile`), reads it once the backend exited and hands its text to the
   * translator's finish (`StreamEndFacts.usageFile`); `normalize --usage-file FILE` does the same for a recording.
   */
  writesUsageFile?: true;
}

/** Tells the backends of one protocol apart by what their streams carry. */
export interface MemberDetector {
  /** The backend this event shows, if it shows one (called from the protocol's first event on). */
  see(event: NativeEvent): string | undefined;
  /** The best guess once the content can no longer tell (`ended`: the stream ended). */
  guess(ended: boolean): string;
}
