// The spans of a canonical stream's trace, checked against the stream itself:
// the same oracle serves the SDK's in-memory exporter and the spans a real
// OpenTelemetry Collector wrote.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { expect } from "vitest";
import type { CanonicalEvent, EventOf } from "../../src/canonical/events.js";

export const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));

/** Every backend's example canonical streams, examples/<backend>/*.canonical.jsonl. */
export function exampleStreams(): { name: string; path: string }[] {
  return readdirSync(EXAMPLES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(`${EXAMPLES}${d.name}`)
        .filter((f) => f.endsWith(".canonical.jsonl"))
        .map((f) => ({ name: `${d.name}/${f}`, path: `${EXAMPLES}${d.name}/${f}` })),
    );
}

const GOLDEN = fileURLToPath(new URL("../fixtures/golden/", import.meta.url));

/** The golden canonical streams, test/fixtures/golden/<backend>/*.canonical.jsonl. */
export function goldenStreams(): { name: string; path: string }[] {
  return readdirSync(GOLDEN).flatMap((backend) =>
    readdirSync(`${GOLDEN}${backend}`)
      .filter((f) => f.endsWith(".canonical.jsonl"))
      .map((f) => ({ name: `${backend}/${f}`, path: `${GOLDEN}${backend}/${f}` })),
  );
}

export const readEvents = (path: string): CanonicalEvent[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as CanonicalEvent);

/** One span, flat, as the collector harness gives them. */
export interface FlatSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: unknown;
  startTimeUnixNano: string | number | bigint;
  endTimeUnixNano: string | number | bigint;
  status?: { code?: unknown; message?: string };
  attributes: Record<string, unknown>;
  events?: { name: string; timeUnixNano?: string | number | bigint; attributes?: Record<string, unknown> }[];
  resource?: Record<string, unknown>;
}

/** Content attributes: never exported unless --otlp-content asks. */
export const CONTENT_ATTRIBUTES = [
  "gen_ai.output.messages",
  "gen_ai.input.messages",
  "gen_ai.tool.call.arguments",
  "gen_ai.tool.call.result",
  "gen_ai.agent.description",
  "agentstream.run.command",
];

const hrNanos = ([s, ns]: [number, number]): bigint => BigInt(s) * 1_000_000_000n + BigInt(ns);

export function fromReadable(span: ReadableSpan): FlatSpan {
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: span.kind,
    startTimeUnixNano: hrNanos(span.startTime),
    endTimeUnixNano: hrNanos(span.endTime),
    status: { code: span.status.code, message: span.status.message },
    attributes: { ...span.attributes },
    events: span.events.map((e) => ({ name: e.name, timeUnixNano: hrNanos(e.time), attributes: { ...e.attributes } })),
    resource: { ...span.resource.attributes },
  };
}

/** Status code as a word: the SDK's 0/1/2 or OTLP JSON's STATUS_CODE_*. */
export function statusOf(span: FlatSpan): "unset" | "ok" | "error" {
  const code = span.status?.code;
  if (code === 2 || code === "STATUS_CODE_ERROR" || code === "Error") return "error";
  if (code === 1 || code === "STATUS_CODE_OK" || code === "Ok") return "ok";
  return "unset";
}

const nanos = (value: string | number | bigint): bigint =>
  BigInt(typeof value === "number" ? Math.round(value) : value);

/**
 * Checks the trace's spans against the canonical stream they came from: tree
 * shape, names, attributes, times (from ts/elapsed_ms), status, span events.
 */
export function expectTraceOf(events: CanonicalEvent[], spans: FlatSpan[], options: { content: boolean }): void {
  const started = events[0] as EventOf<"run.started">;
  expect(started.type).toBe("run.started");
  const finished = events.find((e): e is EventOf<"run.finished"> => e.type === "run.finished");
  const base = Date.parse(started.ts) - started.elapsed_ms;
  // Milliseconds to nanoseconds without a float's rounding (elapsed_ms is whole).
  const at = (e: CanonicalEvent): bigint => BigInt(base + e.elapsed_ms) * 1_000_000n;
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const parentOf = (s: FlatSpan): FlatSpan | undefined => (s.parentSpanId ? byId.get(s.parentSpanId) : undefined);

  // One trace, one root: the run.
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  const roots = spans.filter((s) => !s.parentSpanId);
  expect(roots.map((s) => s.name)).toEqual([`invoke_agent ${started.backend}`]);
  const root = roots[0]!;
  for (const span of spans) if (span !== root) expect(parentOf(span), `parent of ${span.name}`).toBeDefined();
  expect(nanos(root.startTimeUnixNano)).toBe(at(started));
  expect(root.attributes["gen_ai.operation.name"]).toBe("invoke_agent");
  expect(root.attributes["gen_ai.provider.name"]).toBe(started.backend);
  expect(root.attributes["gen_ai.agent.name"]).toBe(started.backend);
  expect(root.attributes["agentstream.run_id"]).toBe(started.run_id);
  const session = events.find((e) => e.type === "session.started") as EventOf<"session.started"> | undefined;
  if (session) expect(root.attributes["gen_ai.conversation.id"]).toBe(session.session_id);
  if (finished) {
    expect(nanos(root.endTimeUnixNano)).toBe(at(finished));
    expect(root.attributes["agentstream.run.status"]).toBe(finished.status);
    expect(Number(root.attributes["agentstream.run.exit_code"])).toBe(finished.exit_code);
    if (finished.error) expect(root.attributes["error.type"]).toBe(finished.error.code);
    expect(statusOf(root)).toBe(["failed", "timed_out", "cancelled"].includes(finished.status) ? "error" : "unset");
    if (finished.usage) {
      expect(Number(root.attributes["gen_ai.usage.input_tokens"])).toBe(finished.usage.input_tokens);
      expect(Number(root.attributes["gen_ai.usage.output_tokens"])).toBe(finished.usage.output_tokens);
    }
  }

  // Sub-agents: nested invoke_agent spans, under the tool call that started them.
  const agentSpan = new Map<string, FlatSpan>([["", root]]);
  for (const sub of events.filter((e): e is EventOf<"subagent.started"> => e.type === "subagent.started")) {
    const span = spans.find((s) => s.attributes["gen_ai.agent.id"] === sub.instance_id);
    expect(span, `sub-agent ${sub.instance_id}`).toBeDefined();
    expect(span!.name).toBe(`invoke_agent ${sub.name}`);
    expect(nanos(span!.startTimeUnixNano)).toBe(at(sub));
    const done = events.find((e) => e.type === "subagent.completed" && e.instance_id === sub.instance_id);
    if (done) expect(nanos(span!.endTimeUnixNano)).toBe(at(done));
    if (sub.tool_call_id !== undefined)
      expect(parentOf(span!)!.attributes["gen_ai.tool.call.id"]).toBe(sub.tool_call_id);
    agentSpan.set(sub.instance_id, span!);
  }

  // Turns: one chat span each, under their agent's span.
  const turns = events.filter((e): e is EventOf<"turn.started"> => e.type === "turn.started" && !e.agent);
  const chats = spans.filter((s) => s.attributes["gen_ai.operation.name"] === "chat");
  for (const turn of turns) {
    const span = chats.find((s) => Number(s.attributes["agentstream.turn"]) === turn.turn && parentOf(s) === root);
    expect(span, `turn ${turn.turn}`).toBeDefined();
    expect(span!.name).toMatch(/^chat( |$)/);
    expect(nanos(span!.startTimeUnixNano)).toBe(at(turn));
    const done = events.find((e) => e.type === "turn.completed" && !e.agent && e.turn === turn.turn);
    if (done) expect(nanos(span!.endTimeUnixNano)).toBe(at(done));
  }
  // Token counts of turns and sub-agents add up to the reports made inside them (the main agent's
  // outside any turn count only in the run's totals, which come from run.finished).
  let mainTurnOpen = false;
  const perCall = events.filter((e): e is EventOf<"usage"> => {
    if (e.type === "turn.started" && !e.agent) mainTurnOpen = true;
    if (e.type === "turn.completed" && !e.agent) mainTurnOpen = false;
    return e.type === "usage" && (e.agent ? e.scope !== "run" : mainTurnOpen);
  });
  if (perCall.length > 0) {
    const sum = (key: string) =>
      chats.reduce((n, s) => n + Number(s.attributes[key] ?? 0), 0) +
      spans
        .filter((s) => s.attributes["gen_ai.operation.name"] === "invoke_agent" && s !== root)
        .reduce((n, s) => n + Number(s.attributes[key] ?? 0), 0);
    expect(sum("gen_ai.usage.input_tokens")).toBe(perCall.reduce((n, e) => n + e.input_tokens, 0));
    expect(sum("gen_ai.usage.output_tokens")).toBe(perCall.reduce((n, e) => n + e.output_tokens, 0));
  }

  // Tool calls: one execute_tool span each, with its real start and end and status.
  const toolSpans = spans.filter((s) => s.attributes["gen_ai.operation.name"] === "execute_tool");
  const calls = events.filter((e): e is EventOf<"tool.started"> => e.type === "tool.started");
  expect(toolSpans.length).toBe(calls.length);
  for (const call of calls) {
    const span = toolSpans.find((s) => s.attributes["gen_ai.tool.call.id"] === call.tool_call_id)!;
    expect(span, `tool ${call.tool_call_id}`).toBeDefined();
    expect(span.name).toBe(`execute_tool ${call.name}`);
    expect(span.attributes["gen_ai.tool.name"]).toBe(call.name);
    expect(nanos(span.startTimeUnixNano)).toBe(at(call));
    const done = events.find(
      (e): e is EventOf<"tool.completed"> => e.type === "tool.completed" && e.tool_call_id === call.tool_call_id,
    )!;
    expect(nanos(span.endTimeUnixNano)).toBe(at(done));
    expect(span.attributes["agentstream.tool.status"]).toBe(done.status);
    expect(statusOf(span)).toBe(done.status === "succeeded" ? "unset" : "error");
    // Its parent is its agent's span or one of that agent's chat spans.
    const agent = agentSpan.get(call.agent?.instance_id ?? "")!;
    const parent = parentOf(span)!;
    expect(parent === agent || parentOf(parent) === agent, `parent of ${span.name}`).toBe(true);
  }

  // Retries, compaction and errors: span events, at their time.
  const spanEvents = spans.flatMap((s) => s.events ?? []);
  for (const type of ["retry.started", "retry.completed", "compaction.started", "compaction.completed", "error"]) {
    const expected = events.filter((e) => e.type === type);
    const got = spanEvents.filter((e) => e.name === type);
    expect(got.length, type).toBe(expected.length);
    expect(got.map((e) => nanos(e.timeUnixNano!)).sort()).toEqual(expected.map(at).sort());
  }

  const contentKeys = spans.flatMap((s) => Object.keys(s.attributes).filter((k) => CONTENT_ATTRIBUTES.includes(k)));
  if (!options.content) expect(contentKeys).toEqual([]);
  else if (finished?.result)
    expect(root.attributes["gen_ai.output.messages"]).toContain(JSON.stringify(finished.result.text).slice(1, -1));
  // The prompts (prompt.submitted): the run's input messages, whatever the backend (ACP's included).
  if (options.content) {
    const prompts = events.flatMap((e) => (e.type === "prompt.submitted" && !e.agent ? [e.text] : []));
    const input = root.attributes["gen_ai.input.messages"];
    if (prompts.length === 0) expect(input).toBeUndefined();
    else
      expect(JSON.parse(input as string)).toEqual(
        prompts.map((text) => ({ role: "user", parts: [{ type: "text", content: text }] })),
      );
  }
}
