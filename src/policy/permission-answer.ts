import { clip } from "../core/clip.js";
import { isObject, nonEmpty, objectOrEmpty } from "../core/fields.js";
import type { NativeEvent } from "../core/translator.js";
import type { PermissionCallback, ToolPermissionRequest } from "./permission-request.js";
import { callArgument, callKind, decided, type PermissionAnswer } from "./permission-policy.js";

/**
 * The native type of agentstream's own answer to a permission request: the driver tells the translation
 * (it is never on an agent's stdout, so a recording has none; `/` keeps it out of any JSON-RPC method's way).
 */
export const PERMISSION_ANSWERED = "agentstream/permission_answered";

/** The driver refused the run's rules to an agent that cannot be governed (told, never on its stdout). */
export const RULES_REFUSED = "agentstream/rules_refused";

/** The client loads a session (`phase: loading`, `session_id`): the agent's replay of its history follows, until `phase: loaded`. */
export const SESSION_LOAD = "agentstream/session_load";

/** The run was stopped (a signal, --timeout, an abort, a limit): session/cancel was sent for it, not for a refusal. */
export const TURN_STOPPED = "agentstream/turn_stopped";

/**
 * The turn cancelled for a request no one decided was not ended by the agent within the grace period: the agent
 * is stopped (its stop signal). The run ends as the refusal says, needs_input with the call pending.
 */
export const TURN_HALTED = "agentstream/turn_halted";

/** The driver's answer to a question (elicitation/create), told the translation as a permission's is. */
export const QUESTION_ANSWERED = "agentstream/question_answered";

/** The events the driver made: a line of their type on an agent's stdout forges nothing (it is kept as data). */
const TOLD = new WeakSet<NativeEvent>();

/** An event of the driver's own, marked so. */
export function toldEvent(event: NativeEvent): NativeEvent {
  TOLD.add(event);
  return event;
}

export function toldByDriver(event: NativeEvent): boolean {
  return TOLD.has(event);
}

export function loadEvent(phase: "loading" | "loaded", sessionId: string): NativeEvent {
  // Its own type for each phase would say no more: one type, read by its phase.
  const event: NativeEvent = { type: SESSION_LOAD, phase, session_id: sessionId };
  TOLD.add(event);
  return event;
}

/** The stop as the event the driver tells the translation: whatever the agent then says of its turn, it was stopped. */
export function turnStoppedEvent(): NativeEvent {
  const event: NativeEvent = { type: TURN_STOPPED };
  TOLD.add(event);
  return event;
}

/** The halt as the event the driver tells the translation: the agent never answered the cancelled prompt. */
export function turnHaltedEvent(): NativeEvent {
  const event: NativeEvent = { type: TURN_HALTED };
  TOLD.add(event);
  return event;
}

/** The refusal as the event the driver tells the translation: the run fails `usage` (exit 2). */
export function refusedEvent(message: string): NativeEvent {
  const event: NativeEvent = { type: RULES_REFUSED, message };
  TOLD.add(event);
  return event;
}

/** A JSON-RPC id as the canonical stream names a request (input.requested.request_id). */
export function requestIdOf(id: unknown): string | undefined {
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** The answer as the event the driver tells the translation (read back by AcpTranslator). */
export function answeredEvent(requestId: string, params: unknown, answer: PermissionAnswer): NativeEvent {
  const response = answer.response.outcome;
  const event: NativeEvent = {
    type: PERMISSION_ANSWERED,
    request_id: requestId,
    tool_call_id: nonEmpty(objectOrEmpty(objectOrEmpty(params).toolCall).toolCallId),
    decision: answer.decision,
    option_id: response.outcome === "selected" ? response.optionId : undefined,
    by: answer.by,
    rule: answer.rule,
  };
  TOLD.add(event);
  return event;
}

/**
 * A request the run's stop answered cancelled while the library's callback was deciding: told the translation
 * (the call must not run; the turn ends as the stop says), though it is no answer of the callback's or the rules'.
 */
export function stoppedEvent(requestId: string, params: unknown): NativeEvent {
  const event: NativeEvent = {
    type: PERMISSION_ANSWERED,
    request_id: requestId,
    tool_call_id: nonEmpty(objectOrEmpty(objectOrEmpty(params).toolCall).toolCallId),
    stopped: true,
  };
  TOLD.add(event);
  return event;
}

/** The request as the library's callback is given it. */
export function toolPermissionRequest(requestId: string, params: unknown): ToolPermissionRequest {
  const call = objectOrEmpty(objectOrEmpty(params).toolCall);
  const toolCallId = nonEmpty(call.toolCallId);
  const title = nonEmpty(call.title);
  const target = callArgument(call);
  return {
    requestId,
    ...(toolCallId !== undefined ? { toolCallId } : {}),
    kind: callKind(call),
    ...(title !== undefined ? { title } : {}),
    ...(target !== undefined ? { target } : {}),
    input: isObject(call.rawInput) ? { ...call.rawInput } : {},
  };
}

/**
 * The caller's answer, where it gives one: undefined leaves the request to the rules. A callback that
 * throws or answers anything else rejects the call (never allowed by a mistake); `onProblem` says why,
 * naming what it answered by its kind only (it may be the request itself, secrets and all) and what it
 * threw by its message, cut (the run's warning path hides secrets and shows control characters).
 */
export async function callerAnswer(
  callback: PermissionCallback,
  requestId: string,
  params: unknown,
  onProblem: (text: string) => void,
): Promise<PermissionAnswer | undefined> {
  let said: unknown;
  try {
    said = await callback(toolPermissionRequest(requestId, params));
  } catch (err) {
    const message = err instanceof Error ? err.message : kindOf(err);
    onProblem(`onPermissionRequest threw (${clip(message, MAX_SHOWN_MESSAGE)}): the call is rejected`);
    return decided(params, "reject", "callback");
  }
  if (said === undefined) return undefined;
  if (said === "allow" || said === "reject") return decided(params, said, "callback");
  onProblem(`onPermissionRequest answered ${kindOf(said)}, not "allow", "reject" or undefined: the call is rejected`);
  return decided(params, "reject", "callback");
}

const MAX_SHOWN_MESSAGE = 200;

/** A value named by its kind, never its content: "an object", "a string", "null". */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const kind = typeof value;
  return kind === "object" || kind === "undefined" ? `an ${kind}` : `a ${kind}`;
}
