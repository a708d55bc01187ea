// --allow-tool, --deny-tool, --approvals and --resume checked against what the
// chosen backend enforces natively: a rule it cannot enforce is refused before
// start (a UsageError naming the backend and what it lacks), never dropped.
import { OptionError } from "../core/errors.js";
import { checkName } from "../core/argv-value.js";
import {
  PORTABLE_TOOLS,
  type ApprovalsMode,
  type BackendDefinition,
  type NativeMeans,
  type PermissionRequest,
  type PortableTool,
} from "./definition.js";

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

function lacking(means: NativeMeans): string | undefined {
  return "lacks" in means ? means.lacks : undefined;
}

/** One rule in the backend's own names, or a UsageError. */
function nativeRule(backend: BackendDefinition, option: string, rule: string): string {
  const parsed = RULE.exec(rule);
  if (!parsed)
    throw new OptionError(
      (name) => `${name(option)}: ${JSON.stringify(rule)} is not a tool name (NAME or NAME(PREFIX))`,
    );
  const [, name, prefix] = parsed as unknown as [string, string, string | undefined];
  const { permissions } = backend;
  if (prefix !== undefined && !permissions.argumentPrefix)
    throw new OptionError(
      (say) => `${say(option)} ${rule}: ${backend.displayName} cannot limit a tool by its arguments`,
      () => `name the whole tool (${name})`,
    );
  if (!isPortable(name)) return kindRule(backend, option, name, prefix);
  const native = permissions.tools[name];
  if (native === undefined)
    throw new OptionError(
      (say) => `${say(option)} ${name}: ${backend.displayName} has no ${name} tool agentstream can name`,
      () =>
        `its own tool names are those tool.started shows; portable names it maps: ${Object.keys(permissions.tools).join(", ") || "none"}`,
    );
  return `${native}${prefix ?? ""}`;
}

/** A native tool name where the backend's rules take kinds (Copilot CLI): the kind that governs it, else as given. */
function kindRule(backend: BackendDefinition, option: string, name: string, prefix: string | undefined): string {
  const kinds = backend.permissions.ruleKinds;
  if (kinds === undefined || !Object.hasOwn(kinds, name)) return `${name}${prefix ?? ""}`;
  const kind = kinds[name]!;
  if ("lacks" in kind) throw new OptionError((say) => `${say(option)} ${name}: ${backend.displayName} ${kind.lacks}`);
  return `${kind.native}${prefix ?? ""}`;
}

function rules(backend: BackendDefinition, option: string, means: NativeMeans, given: readonly string[]): string[] {
  if (given.length === 0) return [];
  // Whatever the backend makes of it, a rule is one argument (or a part of one): never a flag.
  for (const rule of given) checkName(option, rule, "give a tool name, such as shell or one that tool.started shows");
  const lacks = lacking(means);
  if (lacks !== undefined) throw new OptionError((name) => `${name(option)}: ${backend.displayName} ${lacks}`);
  return given.map((rule) => nativeRule(backend, option, rule));
}

/** The request's permission options in the backend's own names; throws a UsageError for any it cannot enforce. */
export function resolvePermissions(backend: BackendDefinition, options: PermissionOptions): PermissionRequest {
  const { permissions } = backend;
  const allowTools = rules(backend, "allowTools", permissions.allow, options.allowTools ?? []);
  const denyTools = rules(backend, "denyTools", permissions.deny, options.denyTools ?? []);
  if (permissions.deniable)
    for (const rule of denyTools)
      if (!permissions.deniable.includes(rule))
        throw new OptionError(
          (name) =>
            `${name("denyTools")} ${rule}: ${backend.displayName} can turn off only ${permissions.deniable!.join(" and ")}`,
        );
  const both = allowTools.find((rule) => denyTools.includes(rule));
  if (both !== undefined)
    throw new OptionError((name) => `${name("allowTools")} and ${name("denyTools")} both name ${both}`);
  if (options.approvals !== undefined && permissions.approvals[options.approvals] === undefined)
    throw new OptionError(
      (name) =>
        `${name("approvals")} ${options.approvals}: ${backend.displayName} ${permissions.approvalsLack ?? `has no ${options.approvals} mode`}`,
    );
  if (options.resume !== undefined) {
    checkName("resume", options.resume, "give the session id the backend reported (run.finished.resume)");
    const lacks = lacking(permissions.resume);
    if (lacks !== undefined) throw new OptionError((name) => `${name("resume")}: ${backend.displayName} ${lacks}`);
  }
  return {
    allowTools,
    denyTools,
    ...(options.approvals !== undefined ? { approvals: options.approvals } : {}),
    ...(options.resume !== undefined ? { resume: options.resume } : {}),
  };
}
