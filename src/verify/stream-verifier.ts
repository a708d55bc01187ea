import type { ErrorObject } from "ajv";
import { describeErrors, type Validator } from "../schema/validator.js";
import { isObject } from "../core/fields.js";
import { EnvelopeRules } from "./envelope-rules.js";
import { EventCounts } from "./event-counts.js";
import { OpenPairs } from "./open-pairs.js";
import type { VerifyProblem } from "./problem.js";
import { runFinishedProblems } from "./run-finished-rules.js";
import { jsonProblem } from "../core/json-problem.js";

/**
 * Checks a canonical stream one line at a time: each line against the schema,
 * and the rules of the stream across lines. Keeps only what the rules need
 * (open tool calls and sub-agents, counters, the previous envelope), never the
 * stream. Rules read fields defensively, so a line that fails the schema still
 * takes its part (a malformed tool.completed still closes its call).
 */
export class StreamVerifier {
  private lines = 0;
  private lastLine = 0;
  private runStartedLine: number | undefined;
  private runFinishedLine: number | undefined;
  private reportedLineAfterFinish = false;
  private nativeFirstLine = false;
  private readonly envelope = new EnvelopeRules();
  private readonly counts = new EventCounts();
  private readonly tools = new OpenPairs({ started: "tool.started", completed: "tool.completed", what: "tool call" });
  private readonly subagents = new OpenPairs({
    started: "subagent.started",
    completed: "subagent.completed",
    what: "sub-agent",
  });

  constructor(private readonly validate: Validator) {}

  /** Lines checked so far. */
  get lineCount(): number {
    return this.lines;
  }

  /** The first line has none of the envelope (v, seq, run_id): most likely a backend's native stream, not yet normalized. */
  get looksNative(): boolean {
    return this.nativeFirstLine;
  }

  /** Check one line: its text without the newline, and its 1-based number in the input. */
  push(text: string, line: number): VerifyProblem[] {
    const messages = this.takePlace(line);
    const parsed = parseObject(text);
    if (typeof parsed === "string") messages.push(parsed);
    else this.checkEvent(parsed, line, messages);
    return messages.map((message) => ({ line, message }));
  }

  /** A line too long to read: it counts as a line but cannot be checked. */
  pushOverlong(bytes: number, line: number): VerifyProblem[] {
    const messages = this.takePlace(line);
    messages.push(`line of ${bytes} bytes is too long to check`);
    return messages.map((message) => ({ line, message }));
  }

  /** The input ended: problems only the end can show. */
  finish(): VerifyProblem[] {
    if (this.lines === 0)
      return [{ line: 0, message: "the stream is empty, but must have run.started first and run.finished last" }];
    if (this.runFinishedLine === undefined)
      return [{ line: this.lastLine, message: "the stream ends without run.finished" }];
    return [];
  }

  private takePlace(line: number): string[] {
    this.lines++;
    this.lastLine = line;
    if (this.runFinishedLine === undefined || this.reportedLineAfterFinish) return [];
    // Once is enough: the lines that follow are part of the same problem.
    this.reportedLineAfterFinish = true;
    return [`line after run.finished (line ${this.runFinishedLine}): run.finished must be the last line`];
  }

  private checkEvent(event: Record<string, unknown>, line: number, out: string[]): void {
    if (!this.validate(event)) out.push(`schema: ${describeErrors(withoutIfThen(this.validate.errors), event)}`);
    out.push(...this.envelope.check(event, line));
    const type = event.type;
    if (this.lines === 1) this.nativeFirstLine = !("v" in event) && !("seq" in event) && !("run_id" in event);
    if (this.lines === 1 && type !== "run.started") {
      out.push(
        `the first line is ${typeof type === "string" ? type : "an event without a type"}, but must be run.started`,
      );
    }
    for (const message of this.checkByType(event, line)) if (message !== undefined) out.push(message);
    if (this.runFinishedLine === undefined) this.counts.add(event);
  }

  private checkByType(event: Record<string, unknown>, line: number): (string | undefined)[] {
    const { tool_call_id: toolCallId, instance_id: instanceId } = event;
    switch (event.type) {
      case "run.started":
        return [this.checkRunStarted(line)];
      case "tool.started":
        return typeof toolCallId === "string" ? [this.tools.start(toolCallId, line)] : [];
      case "tool.completed":
        return typeof toolCallId === "string" ? [this.tools.complete(toolCallId, line)] : [];
      case "subagent.started":
        return typeof instanceId === "string" ? [this.subagents.start(instanceId, line)] : [];
      case "subagent.completed":
        return typeof instanceId === "string" ? [this.subagents.complete(instanceId, line)] : [];
      case "run.finished":
        return this.checkRunFinished(event, line);
      default:
        return [];
    }
  }

  private checkRunStarted(line: number): string | undefined {
    const first = this.runStartedLine;
    this.runStartedLine ??= line;
    if (this.lines === 1) return undefined;
    return first === undefined ? "run.started must be the first line" : `second run.started (first at line ${first})`;
  }

  private checkRunFinished(event: Record<string, unknown>, line: number): string[] {
    if (this.runFinishedLine !== undefined) return [`second run.finished (first at line ${this.runFinishedLine})`];
    this.runFinishedLine = line;
    return [
      ...this.tools.stillOpen(),
      ...this.subagents.stillOpen(),
      ...this.counts.mismatches(event.counts),
      ...runFinishedProblems(event),
    ];
  }
}

/** The parsed object, or what is wrong with the line. */
function parseObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `the line is not JSON: ${jsonProblem(err)}`;
  }
  if (isObject(value)) return value;
  return `the line is ${value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`}, but must be a JSON object`;
}

// ajv adds 'must match "then" schema' after the real reason a type's payload failed.
function withoutIfThen(errors: ErrorObject[] | null | undefined): ErrorObject[] | null | undefined {
  const kept = errors?.filter((e) => e.keyword !== "if");
  return kept && kept.length > 0 ? kept : errors;
}
