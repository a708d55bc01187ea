import type { AnsweredBy } from "../canonical/events.js";
import { OptionError, type OptionNaming } from "../core/errors.js";
import { inputCommand, inputTargets } from "../core/call-targets.js";
import { asText, isObject, nonEmpty, objectOrEmpty } from "../core/fields.js";
import type { ApprovalsMode } from "./permission-request.js";
import type { PortableTool } from "./portable-tools.js";
import { parseRuleText, portableRule, ruleDecision, type ToolRule } from "./tool-rules.js";

/**
 * The portable tool names (--allow-tool, --deny-tool) as ACP tool kinds. ACP does not tell a new file
 * from a change (`edit` is both), so `write` and `edit` each cover both. `web_search` has none: ACP's
 * `search` is a search of files. delete, move, search, think, switch_mode and other have no portable
 * name: a call of those kinds falls to the default.
 */
export const ACP_KINDS: ReadonlyMap<PortableTool, string | undefined> = new Map<PortableTool, string | undefined>([
  ["shell", "execute"],
  ["read", "read"],
  ["write", "edit"],
  ["edit", "edit"],
  ["web_fetch", "fetch"],
  ["web_search", undefined],
]);

/** One rule (src/policy/tool-rules.ts): a portable name with its pattern, and the ACP kind it governs. */
interface Rule extends ToolRule {
  kind: string;
}

export interface AcpPolicy {
  allow: readonly Rule[];
  deny: readonly Rule[];
  approvals: ApprovalsMode;
  /** The run's directory: a relative path, in a pattern or a call, is resolved from it. */
  cwd?: string;
}

/** What the policy answers one `session/request_permission`: the ACP response and why. */
export interface PermissionAnswer {
  decision: "allow" | "reject";
  /** What decided: a rule (named in `rule`), --approvals auto, the library's callback, or the default. */
  by: AnsweredBy;
  /** The rule as given (`shell(git *)`), where one decided; the rules, joined by ", ", where each allowed a part of a compound command. */
  rule?: string;
  /**
   * No rule allowed the call and approvals are not auto, or no option offered can carry the decision (the
   * request is answered cancelled): the turn is stopped and the run ends needs_input with the call pending.
   */
  needsInput: boolean;
  /** The RequestPermissionResponse to send. */
  response: { outcome: { outcome: "selected"; optionId: string } | { outcome: "cancelled" } };
}

/**
 * --allow-tool/--deny-tool/--approvals as one policy over ACP kinds. A name with no ACP kind
 * (web_search) or none at all is refused (an OptionError, exit 2: each side names the options its way).
 */
export function acpPolicy(
  allow: readonly string[],
  deny: readonly string[],
  approvals: ApprovalsMode = "never",
  cwd?: string,
): AcpPolicy {
  return {
    allow: allow.map((rule) => parseRule(rule, "allowTools")),
    deny: deny.map((rule) => parseRule(rule, "denyTools")),
    approvals,
    ...(cwd !== undefined ? { cwd } : {}),
  };
}

/** The two rule options, as one side names them: "--allow-tool/--deny-tool" on the CLI. */
const rules = (say: OptionNaming): string => `${say("allowTools")}/${say("denyTools")}`;

function parseRule(given: string, option: "allowTools" | "denyTools"): Rule {
  const rule = portableRule(parseRuleText(given, option), option);
  if (rule === undefined || !ACP_KINDS.has(rule.tool))
    throw new OptionError(
      (say) => `${rules(say)} ${JSON.stringify(given)}: not a portable tool name`,
      () => `one of ${[...ACP_KINDS.keys()].join(", ")}, optionally NAME(PATTERN)`,
    );
  const kind = ACP_KINDS.get(rule.tool);
  if (kind === undefined)
    throw new OptionError(
      (say) => `${rules(say)} ${rule.tool}: ACP has no kind for it`,
      () => "ACP's `search` kind is a search of files, not of the web: an ACP agent's web search cannot be told apart",
    );
  return { ...rule, kind };
}

/**
 * Decide one permission request (its params as the agent sent them) by the rules alone: deny beats allow, then
 * --approvals (auto allows, else the default rejects). A run with an answerer asks it between the two
 * (src/backends/acp/driver.ts): ruleAnswer, the answerer, then unruledAnswer.
 */
export function answerPermission(policy: AcpPolicy, params: unknown): PermissionAnswer {
  return ruleAnswer(policy, params) ?? unruledAnswer(policy, params);
}

/** What --approvals answers a request no rule and no answerer decided: auto allows, else no one did (the default). */
export function unruledAnswer(policy: AcpPolicy, params: unknown): PermissionAnswer {
  if (policy.approvals === "auto") return decided(params, "allow", "approvals");
  return decided(params, "reject", "default");
}

/** The rules' answer to one request: a deny rule that matches, else an allow rule; undefined where none does. */
export function ruleAnswer(policy: AcpPolicy, params: unknown): PermissionAnswer | undefined {
  const request = objectOrEmpty(params);
  const call = objectOrEmpty(request.toolCall);
  const kind = callKind(call);
  const ofKind = (rule: Rule) => rule.kind === kind;
  const ruled = ruleDecision(
    { allow: policy.allow.filter(ofKind), deny: policy.deny.filter(ofKind) },
    callTargets(call),
    policy.cwd,
  );
  if (ruled?.effect === "deny") return decided(params, "reject", "rule", ruled.rules.join(", "));
  if (ruled?.effect === "allow") return decided(params, "allow", "rule", ruled.rules.join(", "));
  return undefined;
}

/** The kind of a permission request's call, as the rules name kinds (none stated: other). */
export function callKind(call: Record<string, unknown>): string {
  return asText(call.kind) || "other";
}

/**
 * What a rule's pattern is matched against (src/policy/tool-rules.ts): the command of a shell call, else every
 * path or URL it names, from its rawInput (`path`, `file_path`, `filePath`, `url`, each of `paths`, each key of
 * `changes`, a patch's files) and its locations, in that order, each once. Gemini CLI sends no rawInput: the
 * title of its shell call is the command (test/fixtures/live/gemini-acp-0.61.0), so a shell call with no input
 * is matched by its title; another kind's title is words ("ReadFile notes.txt"), never matched. None where the
 * call names nothing (then a deny pattern of its kind denies it and no allow pattern allows it).
 */
export function callTargets(call: Record<string, unknown>): string[] {
  const input = objectOrEmpty(call.rawInput);
  const command = inputCommand(input);
  if (command !== undefined) return [command];
  const locations = Array.isArray(call.locations) ? call.locations.filter(isObject) : [];
  const all = [
    ...inputTargets(input),
    ...locations.map((location) => nonEmpty(location.path)).filter((p) => p !== undefined),
  ];
  if (all.length > 0) return [...new Set(all)];
  const title = Object.keys(input).length === 0 && callKind(call) === "execute" ? nonEmpty(call.title) : undefined;
  return title === undefined ? [] : [title];
}

/** The call's first target (callTargets): what a person or a log line is shown of it. */
export function callArgument(call: Record<string, unknown>): string | undefined {
  return callTargets(call)[0];
}

/**
 * A decision as the answer to the request (its params as sent): the option of the decision's kind,
 * once before always. Rejected by default, the call waits for the user: the turn is stopped and the
 * request answered cancelled, as the protocol asks. With no option of the decision's kind offered, the
 * decision cannot be told the agent: the request is answered cancelled, and the call waits for the user
 * just the same (a cancelled request means a cancelled turn, and the call did not run as decided).
 */
export function decided(
  params: unknown,
  decision: "allow" | "reject",
  by: AnsweredBy,
  rule?: string,
): PermissionAnswer {
  const request = objectOrEmpty(params);
  const options = Array.isArray(request.options) ? request.options.filter(isObject) : [];
  const kinds = decision === "allow" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"];
  const option = kinds.map((k) => options.find((o) => o.kind === k)).find((o) => o !== undefined);
  const optionId = by === "default" || !option ? undefined : nonEmpty(option.optionId);
  const needsInput = optionId === undefined;
  return {
    decision,
    by,
    ...(rule !== undefined ? { rule } : {}),
    needsInput,
    response: { outcome: optionId !== undefined ? { outcome: "selected", optionId } : { outcome: "cancelled" } },
  };
}
