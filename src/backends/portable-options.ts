// The portable options, one row each: where a backend request holds its value, and how a backend's
// lack of it is said. A backend's `supports` says, per option, how it reaches it or why it lacks it.
import { OptionError, type OptionNaming } from "../core/errors.js";
import type { BackendDefinition, BackendRequest } from "./definition.js";
import { BACKENDS } from "./registry.js";
import { reaches, type Lacks, type PortableOption, type PortableRequest, type PortableValues } from "./support.js";

type Worded = (name: OptionNaming) => string;

/** The fields of a backend request that hold the portable options. */
type PortableFields = Omit<BackendRequest, "prompt" | "promptTerminator" | "backendArgs">;

interface PortableRow<K extends PortableOption> {
  /** Its value in the request, when asked. */
  asked(request: PortableFields): PortableValues[K] | undefined;
  /** The refusal of a backend that lacks it: its message and hint. */
  refusal(backend: BackendDefinition, lack: Lacks, context: RefusalContext): [Worded, Worded?];
}

interface RefusalContext {
  all: readonly BackendDefinition[];
  asked: PortableRequest;
}

/** The backend's own definition, where this one drives it over ACP (--transport acp). */
function nativeOf(backend: BackendDefinition, all: readonly BackendDefinition[]): BackendDefinition | undefined {
  if (backend.transport !== "acp") return undefined;
  return all.find((b) => b.name === backend.name && b.transport === undefined);
}

/** The backend as a refusal names it: "Gemini CLI over ACP (--transport acp)" where --transport acp drives it. */
function subjectOf(backend: BackendDefinition, all: readonly BackendDefinition[], name: OptionNaming): string {
  return nativeOf(backend, all) ? `${backend.displayName} over ACP (${name("transport")} acp)` : backend.displayName;
}

/**
 * A flag only some backends have: "has no model flag (Codex has it)", and why as the hint. A backend driven over
 * ACP is never among those said to have it; that its own stream has it is said apart.
 */
function flagRefusal(option: string, noun: Worded, key: PortableOption): PortableRow<PortableOption>["refusal"] {
  return (backend, lack, { all }) => {
    const native = nativeOf(backend, all);
    const takers = all.filter((b) => b.name !== backend.name && reaches(b.supports[key])).map((b) => b.displayName);
    return [
      (name) => {
        const said = [
          ...(takers.length > 0 ? [`${takers.join(" and ")} ${takers.length > 1 ? "have" : "has"} it`] : []),
          ...(native && reaches(native.supports[key])
            ? [`${native.displayName} has it without ${name("transport")} acp`]
            : []),
        ];
        const others = said.length > 0 ? ` (${said.join("; ")})` : "";
        return `${name(option)}: ${subjectOf(backend, all, name)} has no ${noun(name)}${others}`;
      },
      () => lack.lacks,
    ];
  };
}

/** An option whose refusal says why: "--resume: X keeps no sessions". */
function reasonRefusal(said: Worded): PortableRow<PortableOption>["refusal"] {
  return (backend, lack, { all }) => [(name) => `${said(name)}: ${subjectOf(backend, all, name)} ${lack.lacks}`];
}

const LIMITS = ["maxTurns", "maxTokens", "maxCostUsd"] as const;

/** A limit: every limit asked that the backend lacks for the same reason named at once; --max-turns as the hint. */
const limitRefusal: PortableRow<PortableOption>["refusal"] = (backend, lack, { all, asked }) => {
  const named = LIMITS.filter((key) => {
    const support = backend.supports[key];
    return asked[key] !== undefined && !reaches(support) && support.lacks === lack.lacks;
  });
  return [
    (name) => `${named.map(name).join(" and ")}: ${subjectOf(backend, all, name)} ${lack.lacks}`,
    reaches(backend.supports.maxTurns)
      ? (name) => `${name("maxTurns")} stops it (each turn is seen as it begins)`
      : undefined,
  ];
};

/** Adding a portable option: a row here, its value in PortableValues and BackendRequest, an entry in each backend's `supports`. */
export const PORTABLE_OPTIONS: { [K in PortableOption]: PortableRow<K> } = {
  model: { asked: (r) => r.model, refusal: flagRefusal("model", () => "model flag", "model") },
  provider: { asked: (r) => r.provider, refusal: flagRefusal("provider", () => "provider flag", "provider") },
  workdir: { asked: (r) => r.workdir, refusal: flagRefusal("workdir", () => "workdir flag", "workdir") },
  noAutoMode: {
    asked: (r) => (r.autoMode ? undefined : true),
    refusal: flagRefusal("autoMode", (name) => `${name("autoMode")} flag`, "noAutoMode"),
  },
  allowTool: {
    asked: (r) => (r.permissions?.allowTools.length ? r.permissions.allowTools : undefined),
    refusal: reasonRefusal((name) => name("allowTools")),
  },
  denyTool: {
    asked: (r) => (r.permissions?.denyTools.length ? r.permissions.denyTools : undefined),
    refusal: reasonRefusal((name) => name("denyTools")),
  },
  approvalsNever: {
    asked: (r) => (r.permissions?.approvals === "never" ? true : undefined),
    refusal: reasonRefusal((name) => `${name("approvals")} never`),
  },
  approvalsAuto: {
    asked: (r) => (r.permissions?.approvals === "auto" ? true : undefined),
    refusal: reasonRefusal((name) => `${name("approvals")} auto`),
  },
  resume: { asked: (r) => r.permissions?.resume, refusal: reasonRefusal((name) => name("resume")) },
  maxTurns: { asked: (r) => r.maxTurns, refusal: limitRefusal },
  maxTokens: { asked: (r) => r.maxTokens, refusal: limitRefusal },
  maxCostUsd: { asked: (r) => r.maxCostUsd, refusal: limitRefusal },
  usageFile: {
    asked: (r) => r.usageFile,
    refusal: reasonRefusal(() => "usage file"),
  },
  outputSchema: { asked: (r) => r.outputSchema, refusal: reasonRefusal((name) => name("outputSchema")) },
};

export const PORTABLE_OPTION_NAMES = Object.keys(PORTABLE_OPTIONS) as PortableOption[];

/** The portable options of a request, each as a backend's entry is given it. */
export function portableRequest(request: PortableFields): PortableRequest {
  const asked: Record<string, unknown> = {};
  for (const option of PORTABLE_OPTION_NAMES) {
    const value = PORTABLE_OPTIONS[option].asked(request);
    if (value !== undefined) asked[option] = value;
  }
  return asked as PortableRequest;
}

/** Refuse the first of these options that is asked and the backend lacks, before anything starts. */
export function refuseLacking(
  backend: BackendDefinition,
  asked: PortableRequest,
  options: readonly PortableOption[] = PORTABLE_OPTION_NAMES,
): void {
  for (const option of options) {
    const support = backend.supports[option];
    if (reaches(support) || asked[option] === undefined) continue;
    const [message, hint] = PORTABLE_OPTIONS[option].refusal(backend, support, { all: BACKENDS, asked });
    throw new OptionError(message, hint);
  }
}
