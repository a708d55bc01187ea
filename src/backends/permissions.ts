// --allow-tool, --deny-tool, --approvals and --resume checked against what the
// chosen backend enforces natively: a rule it cannot enforce is refused before
// start (a UsageError naming the backend and what it lacks), never dropped.
import { OptionError } from "../core/errors.js";
import { checkName } from "../core/argv-value.js";
import {
  PORTABLE_TOOLS,
  type ApprovalsMode,
  type BackendDefinition,
  type PermissionRequest,
  type PortableTool,
} from "./definition.js";
import { refuseLacking } from "./portable-options.js";

/** The permission options as the user gave them: tool names portable or native. */
export interface PermissionOptions {
  allowTools?: readonly string[];
  denyTools?: readonly string[];
  approvals?: ApprovalsMode;
  resume?: string;
}

/** A rule's tool name and its argument prefix in parentheses, if any: `Bash(git *)`. */
const RULE = /^([^()\s]+)(\(.*\))?$/s;

function isPortable(name: string): name is PortableTool {
  return (PORTABLE_TOOLS as readonly string[]).includes(name);
}

/** One rule in the backend's own names, or a UsageError. */
function nativeRule(backend: BackendDefinition, option: string, rule: string): string {
  const parsed = RULE.exec(rule);
  if (!parsed)
    throw new OptionError(
      (name) => `${name(option)}: ${JSON.stringify(rule)} is not a tool name (NAME or NAME(PREFIX))`,
    );
  const [, name, prefix] = parsed as unknown as [string, string, string | undefined];
  const names = backend.toolNames;
  if (prefix !== undefined && !names.argumentPrefix)
    throw new OptionError(
      (say) => `${say(option)} ${rule}: ${backend.displayName} cannot limit a tool by its arguments`,
      () => `name the whole tool (${name})`,
    );
  if (!isPortable(name)) return kindRule(backend, option, name, prefix);
  const native = names.tools[name];
  if (native === undefined)
    throw new OptionError(
      (say) => `${say(option)} ${name}: ${backend.displayName} has no ${name} tool agentstream can name`,
      () =>
        `its own tool names are those tool.started shows; portable names it maps: ${Object.keys(names.tools).join(", ") || "none"}`,
    );
  return `${native}${prefix ?? ""}`;
}

/** A native tool name where the backend's rules take kinds (Copilot CLI): the kind that governs it, else as given. */
function kindRule(backend: BackendDefinition, option: string, name: string, prefix: string | undefined): string {
  const kinds = backend.toolNames.ruleKinds;
  if (kinds === undefined || !Object.hasOwn(kinds, name)) return `${name}${prefix ?? ""}`;
  const kind = kinds[name]!;
  if ("lacks" in kind) throw new OptionError((say) => `${say(option)} ${name}: ${backend.displayName} ${kind.lacks}`);
  return `${kind.native}${prefix ?? ""}`;
}

function rules(backend: BackendDefinition, option: "allowTools" | "denyTools", given: readonly string[]): string[] {
  if (given.length === 0) return [];
  // Whatever the backend makes of it, a rule is one argument (or a part of one): never a flag.
  for (const rule of given) checkName(option, rule, "give a tool name, such as shell or one that tool.started shows");
  const portable = option === "allowTools" ? "allowTool" : "denyTool";
  refuseLacking(backend, { [portable]: given }, [portable]);
  return given.map((rule) => nativeRule(backend, option, rule));
}

function approvalsOption(mode: ApprovalsMode): "approvalsNever" | "approvalsAuto" {
  return mode === "never" ? "approvalsNever" : "approvalsAuto";
}

/** The request's permission options in the backend's own names; throws a UsageError for any it cannot enforce. */
export function resolvePermissions(backend: BackendDefinition, options: PermissionOptions): PermissionRequest {
  const names = backend.toolNames;
  const allowTools = rules(backend, "allowTools", options.allowTools ?? []);
  const denyTools = rules(backend, "denyTools", options.denyTools ?? []);
  if (names.deniable)
    for (const rule of denyTools)
      if (!names.deniable.includes(rule))
        throw new OptionError(
          (name) =>
            `${name("denyTools")} ${rule}: ${backend.displayName} can turn off only ${names.deniable!.join(" and ")}`,
        );
  const both = allowTools.find((rule) => denyTools.includes(rule));
  if (both !== undefined)
    throw new OptionError((name) => `${name("allowTools")} and ${name("denyTools")} both name ${both}`);
  if (options.approvals !== undefined) refuseLacking(backend, { [approvalsOption(options.approvals)]: true });
  if (options.resume !== undefined) {
    checkName("resume", options.resume, "give the session id the backend reported (run.finished.resume)");
    refuseLacking(backend, { resume: options.resume }, ["resume"]);
  }
  return {
    allowTools,
    denyTools,
    ...(options.approvals !== undefined ? { approvals: options.approvals } : {}),
    ...(options.resume !== undefined ? { resume: options.resume } : {}),
  };
}
