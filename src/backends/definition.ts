import type { Driver } from "../run/driver.js";
import type { NativeEvent, Translator } from "../core/translator.js";
import type { LaunchSpec } from "../run/launch-spec.js";
import type { StopWatch } from "../run/stop-signals.js";
import type { DriverRequest, PortableValues } from "./request.js";
import type { PortableTool } from "../policy/portable-tools.js";
import type { ArgvFrame, PlacedOptions, Reaches, Supports } from "./support.js";
import type { Words } from "../core/errors.js";

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
 * checks new releases against it (test/helpers/live/drift.ts).
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

// The portable tool names are the policy's (src/policy/portable-tools.ts): each backend maps them to its own.
export { PORTABLE_TOOLS, type PortableTool } from "../policy/portable-tools.js";

/** What a tool.started name of a backend is to its rules (Copilot CLI's kinds): the name a rule gives it, or why no rule can. */
export type RuleKind = { native: string } | { lacks: Words };

/**
 * How the backend names tools in --allow-tool and --deny-tool rules (how the rules reach it is in
 * `supports.allowTools` and `supports.denyTools`).
 */
export interface ToolNames {
  /** Each portable name as the backend's own tool name; a portable name absent here is refused. */
  tools: Partial<Record<PortableTool, string>>;
  /** Where only some native names can be denied (Codex turns tools off by feature): those names. */
  deniable?: readonly string[];
  /**
   * Where rules name permission kinds rather than tools (Copilot CLI): each of its tool.started names
   * a rule may be given in, as the kind that governs that tool, or why no rule can.
   */
  ruleKinds?: Readonly<Record<string, RuleKind>>;
  /**
   * Whether a rule in its own tool names may carry a pattern in parentheses (`Bash(git:*)`): passed as
   * written, read as the backend reads it. A portable name's pattern is `patterns`'.
   */
  argumentPrefix: boolean;
  /** Where a portable rule's pattern (docs/permissions.md "Rules") can reach it: absent, every pattern is refused. */
  patterns?: NativePatterns;
}

/** How a backend takes a portable `NAME(PATTERN)` rule: as native rules that decide as agentstream's reading does. */
export interface NativePatterns {
  /** The portable tools whose patterns it takes (any other's is refused). */
  tools: readonly PortableTool[];
  /**
   * Those of `tools` whose deny patterns it takes too (all of them where not said): a deny pattern its own matcher
   * is not shown to hold against another spelling of the command (docs/permissions.md "Rules") is refused.
   */
  denies?: readonly PortableTool[];
  /** The native rules, for the tool's native name and the pattern, that decide as the pattern does. */
  rules(native: string, pattern: string): readonly string[];
}

// ---- end of permissions ----

/** How a backend is found, started and stopped (what the supervisor reads: its LaunchSpec), and its prompt set off. */
export interface LaunchFacet<Name extends string = string> extends LaunchSpec {
  /** The name of --backend / --from and of every event's `backend`. */
  name: Name;
  /**
   * Whether `--` goes before this prompt. May probe the executable (pi's
   * version: supervised, stopped by a stop signal) and may refuse the prompt with a UsageError.
   */
  promptTerminator(executable: string, prompt: string, probe: ProbeContext): boolean | Promise<boolean>;
}

/**
 * What a backend takes of the portable options, and how its argv is written (src/backends/native-input.ts). V:
 * the portable values (a test's table may have one more).
 */
export interface ArgvFacet<Name extends string = string, V = PortableValues> {
  name: Name;
  displayName: string;
  /**
   * Each portable option (model, workdir, the rules, the limits, the usage file...): how it reaches the
   * backend and how --help and the docs show it, or why it lacks it (refused before start). Declared in
   * the order their arguments take in its argv.
   */
  supports: Supports<V>;
  /** How its --allow-tool and --deny-tool rules name tools (README "Permissions and continuing a run"). */
  toolNames: ToolNames;
  /**
   * Its argv (without the executable): its own fixed words, the options' arguments where `placed` gives them
   * (never written here: they come from `supports`), no shell, the prompt one argument (unless a driver takes it).
   */
  layout(frame: ArgvFrame, placed: PlacedOptions): string[];
}

/** How a backend's native stream is told apart from the others' and translated (src/backends/detect.ts, the session). */
export interface StreamFacet<Name extends string = string, Protocol extends string = string> {
  name: Name;
  /** Backends that write the same protocol share one translator (pi and Atomic). */
  protocol: Protocol;
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
}

/** A backend driven over a protocol on its stdin and stdout (ACP) rather than launched with argv and read. */
export interface DriverFacet {
  /**
   * The driver of one run, given the request as asked (its rules in portable names: the driver maps them
   * itself, once) and the prompt, in `cwd`, with the backend's environment. Absent: it is launched with argv
   * and read (the argv driver).
   */
  driver?(request: DriverRequest, prompt: string, cwd: string, env: NodeJS.ProcessEnv): Driver;
}

// ---- What only an agent that speaks the Agent Client Protocol has: how it is started to speak it
// (`run --transport acp`), and that it is driven over it under a name of its own (Qwen Code). Any
// backend's definition may carry it, so it is declared here, with the other facets. ----

/**
 * How an agent is started to speak the Agent Client Protocol (its argv before --backend-arg), and how its model
 * is chosen there: a flag (`--model`), or another means (OpenCode's config variable); none where it has none.
 */
export interface AcpMode {
  args: readonly string[];
  model?: string | Reaches<"model">;
  /** How its model provider is chosen there, where it takes one (Codex's adapter: MODEL_PROVIDER). */
  provider?: Reaches<"provider">;
  /**
   * Where another program speaks ACP for the agent (Claude Code's and Codex's adapters from npm): how that
   * program is found and installed. `--bin` then names the adapter, never the agent.
   */
  adapter?: AcpAdapter;
}

/** An adapter program that drives an agent and speaks ACP for it: how it is found (as a backend's executable is). */
export interface AcpAdapter {
  executableNames: readonly string[];
  binEnvVar: string;
  install: string;
}

/** How a run drives its agent: its own stream (native), or the Agent Client Protocol (acp). */
export const TRANSPORTS = ["native", "acp"] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** The ACP facet of a backend definition: absent on a backend that does not speak ACP. */
export interface AcpFacet {
  /** It also speaks ACP (`run --transport acp`): how it is started to. */
  acpMode?: AcpMode;
  /**
   * It is driven and read over ACP though its name is not `acp` (Qwen Code; `--transport acp`): run.started
   * says so (`transport`), and a stream's content names the `acp` backend, never this one.
   */
  transport?: "acp";
}

// ---- end of the ACP facet ----

/**
 * Everything agentstream knows of one agent, by concern: how it is launched and stopped, what it takes of the
 * portable options and its argv, how its stream is told apart and translated, its driver, and what only an
 * agent that speaks ACP has (AcpFacet). Each consumer takes the facet it uses. One per folder
 * under src/backends/, listed in the registry.
 */
export type BackendDefinition<
  Name extends string = string,
  Protocol extends string = string,
  V = PortableValues,
> = LaunchFacet<Name> & ArgvFacet<Name, V> & StreamFacet<Name, Protocol> & DriverFacet & AcpFacet;

/** Tells the backends of one protocol apart by what their streams carry. */
export interface MemberDetector {
  /** The backend this event shows, if it shows one (called from the protocol's first event on). */
  see(event: NativeEvent): string | undefined;
  /** The best guess once the content can no longer tell (`ended`: the stream ended). */
  guess(ended: boolean): string;
}
