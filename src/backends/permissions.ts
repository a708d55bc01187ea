// --allow-tool and --deny-tool rules turned into the chosen backend's own tool
// names: a rule it cannot enforce is refused before start (a UsageError naming
// the backend and what it lacks), never dropped.
import { OptionError, wordedWith, type Words } from "../core/errors.js";
import type { ArgvFacet } from "./definition.js";
import type { PortableRequest } from "./request.js";
import { isPortable, parseRuleText, portableRule } from "../policy/tool-rules.js";

type RuleOption = "allowTools" | "denyTools";

/**
 * One rule in the backend's own names (more than one where its patterns need two to decide the same), or an
 * OptionError. The grammar and a portable pattern's meaning are src/policy/tool-rules.ts's; a portable
 * pattern reaches a backend only where its `toolNames.patterns` turns it into native rules that decide the
 * same, else it is refused: never widened or narrowed in silence.
 */
function nativeRule(backend: ArgvFacet, option: RuleOption, given: string): string[] {
  const text = parseRuleText(given, option);
  const { name, pattern } = text;
  const names = backend.toolNames;
  const cannotLimit = (why = "", hint: Words = `name the whole tool (${name})`) =>
    new OptionError(
      (say) => `${say(option)} ${given}: ${backend.displayName} cannot limit a tool by its arguments${why}`,
      (say) => wordedWith(hint, say),
    );
  if (!isPortable(name)) {
    if (pattern !== undefined && !names.argumentPrefix) throw cannotLimit();
    return [kindRule(backend, option, name, pattern === undefined ? "" : `(${pattern})`)];
  }
  const rule = portableRule(text, option)!;
  const native = names.tools[name];
  if (native === undefined)
    throw new OptionError(
      (say) => `${say(option)} ${name}: ${backend.displayName} has no ${name} tool agentstream can name`,
      () =>
        `its own tool names are those tool.started shows; portable names it maps: ${Object.keys(names.tools).join(", ") || "none"}`,
    );
  if (rule.pattern === undefined) return [native];
  const patterns = names.patterns;
  if (patterns === undefined) {
    if (!names.argumentPrefix) throw cannotLimit();
    throw cannotLimit(
      " as agentstream reads a pattern (docs/permissions.md, Rules)",
      (say) =>
        `name the whole tool (${name}), or write a rule in its own tool names, which it reads its own way; over ACP (${say("transport")} acp, where it speaks it) agentstream answers each request by the pattern`,
    );
  }
  if (!patterns.tools.includes(name))
    throw cannotLimit(
      `: it reads a ${name} pattern its own way, not as agentstream does (docs/permissions.md, Rules)`,
      `name the whole tool (${name})${patterns.tools.length > 0 ? `; its patterns agentstream can pass: ${patterns.tools.join(", ")}` : ""}`,
    );
  if (option === "denyTools" && patterns.denies !== undefined && !patterns.denies.includes(name))
    throw new OptionError(
      (say) =>
        `${say(option)} ${given}: ${backend.displayName}'s own matcher is not shown to hold a ${name} deny pattern against another spelling of the command (a wrapper, a path, an expansion, a redirection between the words: docs/permissions.md, Rules)`,
      (say) =>
        `deny the whole tool (${name}), or have each call answered live over ACP (${say("transport")} acp), where agentstream reads the pattern`,
    );
  return [...patterns.rules(native, rule.pattern)];
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

function rules(backend: ArgvFacet, option: RuleOption, given: readonly string[] = []): string[] {
  return [...new Set(given.flatMap((rule) => nativeRule(backend, option, rule)))];
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
