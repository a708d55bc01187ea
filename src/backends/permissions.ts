// --allow-tool and --deny-tool rules turned into the chosen backend's own tool
// names: a rule it cannot enforce is refused before start (a UsageError naming
// the backend and what it lacks), never dropped.
import { OptionError, wordedWith } from "../core/errors.js";
import { PORTABLE_TOOLS, type ArgvFacet, type PortableTool } from "./definition.js";
import type { PortableRequest } from "./request.js";

/** A rule's tool name and its argument prefix in parentheses, if any: `Bash(git *)`. */
const RULE = /^([^()\s]+)(\(.*\))?$/s;

function isPortable(name: string): name is PortableTool {
  return (PORTABLE_TOOLS as readonly string[]).includes(name);
}

/** One rule in the backend's own names, or a UsageError. */
function nativeRule(backend: ArgvFacet, option: string, rule: string): string {
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
function kindRule(backend: ArgvFacet, option: string, name: string, prefix: string | undefined): string {
  const kinds = backend.toolNames.ruleKinds;
  if (kinds === undefined || !Object.hasOwn(kinds, name)) return `${name}${prefix ?? ""}`;
  const kind = kinds[name]!;
  if ("lacks" in kind)
    throw new OptionError((say) => `${say(option)} ${name}: ${backend.displayName} ${wordedWith(kind.lacks, say)}`);
  return `${kind.native}${prefix ?? ""}`;
}

function rules(backend: ArgvFacet, option: "allowTools" | "denyTools", given: readonly string[] = []): string[] {
  return given.map((rule) => nativeRule(backend, option, rule));
}

/**
 * The request's --allow-tool and --deny-tool rules in the backend's own names, once its lacks were refused
 * (src/backends/portable-options.ts); throws a UsageError for a rule it cannot enforce.
 */
export function nativeRules(
  backend: ArgvFacet,
  request: Pick<PortableRequest, "allowTools" | "denyTools">,
): Required<Pick<PortableRequest, "allowTools" | "denyTools">> {
  const names = backend.toolNames;
  const allowTools = rules(backend, "allowTools", request.allowTools);
  const denyTools = rules(backend, "denyTools", request.denyTools);
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
  return { allowTools, denyTools };
}
