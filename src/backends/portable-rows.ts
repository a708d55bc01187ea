// The rows of the option table (src/app/options.ts) a backend is given: each declares its backend value
// (its type from its check, a transform where the backend is given something else than the request holds),
// how it goes on a command line, how a lack of it is said, and (row order here) the order a backend's lacks
// are refused in. The portable values every backend's `supports` answers for are derived from these rows
// (src/backends/request.ts), so a new one is its row here, one entry in each backend's `supports`, its docs row.
import { resolve } from "node:path";
import type { PortableRow, Takers } from "../core/option-row.js";
import { above0, boolean, checkOf, func, nonEmpty, oneOf, string, strings } from "../core/option-values.js";
import { loadOutputSchema, type OutputSchema } from "../run/output-schema.js";
import type { StopWatch } from "../run/stop-signals.js";

// The tool names and the approvals modes are the policy's terms (src/policy/), which the rows take as they are.
import { PORTABLE_TOOLS } from "../policy/portable-tools.js";
import {
  APPROVALS_MODES,
  QUESTIONS_MODES,
  type ApprovalsMode,
  type PermissionCallback,
} from "../policy/permission-request.js";

/** What a portable row's transform may use: the stop signals heard while planning (a schema file may be a FIFO). */
export interface PortableContext {
  stops: StopWatch;
}

const RUN = ["run"] as const;
const LIB_RUN = ["run"] as const;
const LIB_BOTH = ["run", "normalizeStream"] as const;

/** An option only some backends have: which take it, and as what. */
const flagHelp =
  (option: string, what: string, byDefault: string) =>
  (takers: Takers): string => {
    const taking = takers(option);
    const only = taking.length === 1 ? " only" : "";
    const passedAs = [...new Set(taking.map((b) => b.via))].join(" / ");
    return `${taking.map((b) => b.displayName).join(", ")}${only}: ${what}, passed as ${passedAs} (default: ${byDefault})`;
  };

/** The backends that have one kind of permission rule natively. */
const permissionHelp =
  (option: "allowTools" | "denyTools" | "resume", what: string) =>
  (takers: Takers): string => {
    const taking = takers(option);
    const portable = option === "resume" ? "" : `; portable names: ${PORTABLE_TOOLS.join(", ")}`;
    const who =
      taking.length === takers.count
        ? "every backend"
        : `${taking.map((b) => b.displayName).join(", ")}; refused elsewhere`;
    return `${what} (${who}${portable})`;
  };

/** The backends that have each --approvals mode. */
const approvalsHelp = (takers: Takers): string => {
  const modes = (mode: ApprovalsMode) =>
    `${mode}: ${takers("approvals", mode)
      .map((b) => b.displayName)
      .join(", ")}`;
  return `never: a call that needs a human ends the run needs_input (exit 3); auto: the backend's own auto-approval; ask: a person at the terminal answers each request no rule decides (${modes("never")}; ${modes("auto")}; ${modes("ask")}; refused elsewhere)`;
};

const SESSION_HINT = "give the session id the backend reported (run.finished.resume)";
const RULE_HINT = "give a tool name, such as shell or one that tool.started shows";
const A_LIMIT = { refusal: { limit: true } } as const;

/** The portable rows, in the order a backend's lacks are refused: the first one asked that it lacks is said. */
export const PORTABLE_ROWS = [
  {
    key: "model",
    lifetime: "agent",
    portable: { refusal: { flag: "model flag" } },
    argument: { kind: "name" },
    cli: [
      { flags: "--model <id>", help: flagHelp("model", "the model", "the backend's own"), commands: RUN },
      {
        flags: "--model <name>",
        help: "the model the recorded run used, as the price table names it (gpt-5, claude-sonnet-4-5): usage whose stream names no model (Codex, EvoScientist, OpenCode) is priced as it (default: none, so such usage has no cost)",
        commands: ["normalize"],
      },
    ],
    library: LIB_BOTH,
    check: string,
  },
  {
    key: "provider",
    lifetime: "agent",
    portable: { refusal: { flag: "provider flag" } },
    argument: { kind: "name" },
    cli: {
      flags: "--provider <name>",
      help: flagHelp("provider", "the provider", "the backend's own"),
      commands: RUN,
    },
    library: LIB_RUN,
    check: string,
  },
  {
    key: "workdir",
    lifetime: "agent",
    // Absolute.
    portable: { value: (dir: string) => resolve(dir), refusal: { flag: "workdir flag" } },
    argument: { kind: "passable" },
    cli: {
      flags: "--workdir <dir>",
      help: flagHelp("workdir", "the agent's working directory (its /), created if missing", "the backend's own"),
      commands: RUN,
    },
    library: LIB_RUN,
    check: string,
  },
  {
    key: "autoMode",
    lifetime: "agent",
    // Only the non-default is asked: the backend is to stop for the user's input.
    portable: { refusal: { flag: (name) => `${name("autoMode")} flag` } },
    cli: {
      flags: "--no-auto-mode",
      help: flagHelp("autoMode", "approvals and questions stop the run with exit 3", "auto mode"),
      commands: RUN,
    },
    library: LIB_RUN,
    negated: true,
    check: boolean,
    default: true,
    relations: [{ excludes: "approvals", value: "auto" }],
  },
  {
    key: "maxTurns",
    lifetime: "limits",
    portable: A_LIMIT,
    cli: {
      flags: "--max-turns <n>",
      help: "stop the backend when turn n+1 (model call) begins: run.finished failed, error budget, exit 1 (default: no limit)",
      commands: RUN,
    },
    library: LIB_RUN,
    check: above0(true),
  },
  {
    key: "maxTokens",
    lifetime: "limits",
    portable: A_LIMIT,
    cli: {
      flags: "--max-tokens <n>",
      help: "stop the backend once this run's input + output tokens reach n: failed, budget, exit 1 (default: no limit)",
      commands: RUN,
    },
    library: LIB_RUN,
    check: above0(true),
  },
  {
    key: "maxCostUsd",
    lifetime: "limits",
    portable: A_LIMIT,
    cli: {
      flags: "--max-cost-usd <usd>",
      help: "stop the backend once this run's cost (reported, else estimated) reaches this: failed, budget, exit 1; a model without a known price stops it at its first usage (default: no limit)",
      commands: RUN,
    },
    library: LIB_RUN,
    check: above0(false),
  },
  {
    key: "allowTools",
    lifetime: "agent",
    // Tool rules, in the backend's own names once planned (portable names to a driver).
    portable: {},
    // Whatever the backend makes of it, a rule is one argument (or a part of one): never a flag.
    argument: { kind: "name", hint: RULE_HINT },
    cli: {
      flags: "--allow-tool <name>",
      help: permissionHelp(
        "allowTools",
        "let the backend run this tool without asking (repeatable; NAME(PATTERN) where it can)",
      ),
      commands: RUN,
      showDefault: true,
    },
    library: LIB_RUN,
    check: strings,
    default: [],
  },
  {
    key: "denyTools",
    lifetime: "agent",
    portable: {},
    argument: { kind: "name", hint: RULE_HINT },
    cli: {
      flags: "--deny-tool <name>",
      help: permissionHelp("denyTools", "keep the backend from running this tool (repeatable)"),
      commands: RUN,
      showDefault: true,
    },
    library: LIB_RUN,
    check: strings,
    default: [],
  },
  {
    key: "approvals",
    lifetime: "agent",
    // A choice: each backend's entry says per mode what it becomes, or why it lacks it.
    portable: { choices: APPROVALS_MODES, liveChoices: ["ask"] },
    cli: { flags: "--approvals <mode>", help: approvalsHelp, commands: RUN, choices: APPROVALS_MODES },
    library: LIB_RUN,
    check: oneOf(APPROVALS_MODES),
  },
  // The answerers of a permission request no rule decides (an ACP agent's, asked live): one per run.
  {
    key: "approveWith",
    lifetime: "agent",
    // A command line (`sh -c`) that answers each request no rule decides: a backend asked live only.
    portable: { live: "entry" },
    cli: {
      flags: "--approve-with <cmd>",
      help: "answer each permission request no rule decides by running CMD (sh -c) with the input.requested event on its stdin: exit 0 allows, anything else rejects (backends asked live only: docs/permissions.md)",
      commands: RUN,
    },
    library: LIB_RUN,
    check: nonEmpty("a command line (a non-empty string)"),
    relations: [
      { excludes: "approvals", value: "ask" },
      { excludes: "approvals", value: "auto" },
    ],
  },
  {
    key: "questions",
    lifetime: "agent",
    // Whether questions are offered (ACP form elicitation): the non-default only is asked, of a backend asked live.
    portable: { live: "entry" },
    cli: {
      flags: "--questions <mode>",
      help: "offer the agent questions (ACP form elicitation): answer (where the run has an answerer: --approve-with, --approvals ask), pending (also where it has none: a question ends the run needs_input with it pending), never (backends asked live only: docs/permissions.md)",
      commands: RUN,
      choices: QUESTIONS_MODES,
      showDefault: true,
    },
    library: LIB_RUN,
    check: oneOf(QUESTIONS_MODES),
    default: "answer",
  },
  {
    key: "resume",
    lifetime: "agent",
    // The session to continue (--continue-from's, where it was given).
    portable: {},
    argument: { kind: "name", hint: SESSION_HINT },
    cli: {
      flags: "--resume <session>",
      help: permissionHelp("resume", "continue this session of the backend with the prompt"),
      commands: RUN,
    },
    library: LIB_RUN,
    check: nonEmpty("a session id (a non-empty string)"),
    relations: [{ excludes: "continueFrom" }],
    oneRun: "continues one session: it cannot apply to every cell of a compare",
  },
  {
    key: "onPermissionRequest",
    lifetime: "agent",
    // Answers a permission request live, where no rule decides: the driver takes it whole.
    portable: { live: "driver" },
    library: LIB_RUN,
    check: func<PermissionCallback>(),
    relations: [{ excludes: "approveWith" }, { excludes: "approvals", value: "ask" }],
  },
  {
    // Where the backend is to write what its stream leaves out (token counts): run names a fresh file, reads it
    // once the backend exited and hands its text to the translator's finish (`StreamEndFacts.usageFile`);
    // `normalize --usage-file FILE` does the same for a recording.
    key: "usageFile",
    lifetime: "recording",
    portable: { supplied: true, refusal: { named: "usage file" } },
    file: { role: "reads" },
    cli: {
      flags: "--usage-file <file>",
      help: "the usage file the recorded backend wrote beside its stream (Copilot CLI's --usage-output-file): its token counts go into the usage totals (default: none; Copilot's usage is then unknown)",
      commands: ["normalize"],
    },
    check: string,
  },
  // A file on the CLI; in the library the schema itself (an object) or a file's path.
  {
    key: "outputSchema",
    lifetime: "agent",
    file: { role: "reads" },
    // The schema the answer must match (the answer is checked by agentstream whatever the means), read once
    // the request was checked: a backend's lack of it is said first.
    portable: {
      value: (given: object | string, { stops }: PortableContext): Promise<OutputSchema> =>
        loadOutputSchema(given, stops),
    },
    cli: {
      flags: "--output-schema <file>",
      help: "a JSON Schema (draft 2020-12, or draft-07 by its $schema) the final answer must match: valid, run.finished.result.json holds it; else the run fails, error output_schema, exit 1 (docs/output-schema.md)",
      commands: ["run", "normalize"],
    },
    library: LIB_BOTH,
    check: checkOf<object | string>((v) =>
      (typeof v === "string" && v !== "") || (typeof v === "object" && v !== null && !Array.isArray(v))
        ? undefined
        : "expected a JSON Schema (an object) or the path of a JSON file",
    ),
  },
] as const satisfies readonly PortableRow[];
