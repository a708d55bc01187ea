// EvoSci stream-json events (see the protocol notes): each type with its fields,
// single events with pooled ids for random orders, and blocks in the order a real
// run writes them.
import fc from "fast-check";
import type { NativeEvent } from "../../../src/core/translator.js";
import { numberBlocks, unknownEvent } from "./blocks.js";
import { anyText, errorMessage, plausibleText, pooledId } from "./text.js";
import { anyJson, wildVariant } from "./wild.js";

const toolName = fc.constantFrom("ls", "read_file", "execute", "task", "ask_user", "");
const subagentName = fc.constantFrom("research-agent", "code-agent", "");
const args = fc.oneof(fc.constant({}), fc.dictionary(fc.string({ maxLength: 5 }), anyJson, { maxKeys: 3 }));

const thinking = (content = anyText) => fc.record({ type: fc.constant("thinking"), content, id: fc.constant(0) });
const text = (content = anyText) => fc.record({ type: fc.constant("text"), content });
const toolCall = (id: fc.Arbitrary<string>) => fc.record({ type: fc.constant("tool_call"), name: toolName, args, id });
const toolResult = (id: fc.Arbitrary<string>) =>
  fc.record({ type: fc.constant("tool_result"), name: toolName, content: anyText, success: fc.boolean(), id });
const subagentStart = (instance: fc.Arbitrary<string>, call: fc.Arbitrary<string>) =>
  fc.record({
    type: fc.constant("subagent_start"),
    name: subagentName,
    description: fc.constant(""),
    instance_id: instance,
    tool_call_id: call,
  });
const subagentText = (instance: fc.Arbitrary<string>) =>
  fc.record({ type: fc.constant("subagent_text"), subagent: subagentName, content: anyText, instance_id: instance });
const subagentToolCall = (instance: fc.Arbitrary<string>, id: fc.Arbitrary<string>) =>
  fc.record({
    type: fc.constant("subagent_tool_call"),
    subagent: subagentName,
    name: toolName,
    args,
    id,
    instance_id: instance,
  });
const subagentToolResult = (instance: fc.Arbitrary<string>, id: fc.Arbitrary<string>) =>
  fc.record({
    type: fc.constant("subagent_tool_result"),
    subagent: subagentName,
    name: toolName,
    content: anyText,
    success: fc.boolean(),
    id,
    instance_id: instance,
  });
const subagentEnd = (instance: fc.Arbitrary<string>) =>
  fc.record({ type: fc.constant("subagent_end"), name: subagentName, instance_id: instance });
const usageStats = fc.record({
  type: fc.constant("usage_stats"),
  input_tokens: fc.nat(200_000),
  output_tokens: fc.nat(5_000),
});
const toolSelection = fc.record({ type: fc.constant("tool_selection"), tools: fc.array(toolName, { maxLength: 3 }) });
const summarizationStart = fc.constant({ type: "summarization_start" });
const summarization = fc.record({ type: fc.constant("summarization"), content: anyText });
const interrupt = (id: fc.Arbitrary<string>) =>
  fc.record({
    type: fc.constant("interrupt"),
    interrupt_id: id,
    action_requests: fc.array(fc.record({ name: toolName, args, description: anyText }), { maxLength: 2 }),
    review_configs: fc.array(
      fc.record({ action_name: toolName, allowed_decisions: fc.subarray(["approve", "edit", "reject"]) }),
      { maxLength: 2 },
    ),
  });
const question = fc.record(
  {
    question: anyText,
    type: fc.constantFrom("text", "multiple_choice"),
    choices: fc.array(fc.record({ value: anyText }), { maxLength: 2 }),
    required: fc.boolean(),
  },
  { requiredKeys: ["question", "type"] },
);
const askUser = (id: fc.Arbitrary<string>, call: fc.Arbitrary<string>) =>
  fc.record({
    type: fc.constant("ask_user"),
    interrupt_id: id,
    questions: fc.array(question, { maxLength: 2 }),
    tool_call_id: call,
  });
const error = fc.record({ type: fc.constant("error"), message: errorMessage });
const done = fc.tuple(anyText).map(([t]) => ({ type: "done", content: t, response: t }));
const panelDispatch = (id: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.record({
      type: fc.constant("panel_dispatch_start"),
      eval_id: id,
      id,
      subagent_type: subagentName,
      label: anyText,
      description: anyText,
    }),
    fc.record({ type: fc.constant("panel_dispatch_complete"), eval_id: id, id, duration_ms: fc.nat() }),
    fc.record({
      type: fc.constant("panel_dispatch_error"),
      eval_id: id,
      id,
      duration_ms: fc.nat(),
      error: errorMessage,
    }),
  );

/** The terminal events: the run ends with one of them, or with neither (cut, killed). */
export const evosciTerminal = fc.oneof(done, error);

const callId = pooledId("toolu_");
const instanceId = pooledId("inst_");

/** Any one EvoSci event, ids from a small pool: in a random sequence they repeat, go missing and mismatch. */
export const evosciEvent: fc.Arbitrary<NativeEvent> = fc.oneof(
  thinking(),
  text(),
  toolCall(callId),
  toolResult(callId),
  subagentStart(instanceId, callId),
  subagentText(instanceId),
  subagentToolCall(instanceId, callId),
  subagentToolResult(instanceId, callId),
  subagentEnd(instanceId),
  usageStats,
  toolSelection,
  summarizationStart,
  summarization,
  interrupt(pooledId("int_")),
  askUser(pooledId("int_"), callId),
  error,
  done,
  panelDispatch(pooledId("eval_")),
  unknownEvent,
);

/** Any EvoSci event, sometimes with wrong field types and unknown fields. */
export const evosciWildEvent = fc.oneof(
  { arbitrary: evosciEvent, weight: 3 },
  { arbitrary: wildVariant(evosciEvent), weight: 1 },
);

// Blocks as a run writes them; "#" in an id becomes the block's number.
const one = <T>(a: fc.Arbitrary<T>) => a.map((e) => [e]);
const some = <T>(a: fc.Arbitrary<T>, maxLength = 3) => fc.array(a, { minLength: 1, maxLength });
const toolBlock = fc
  .tuple(
    toolCall(fc.constant("toolu_#")),
    fc.option(usageStats, { nil: undefined }),
    toolResult(fc.constant("toolu_#")),
  )
  .map(([call, usage, result]) => (usage ? [call, usage, result] : [call, result]));
const subagentBlock = fc
  .tuple(
    toolCall(fc.constant("task_#")),
    subagentStart(fc.constant("inst_#"), fc.constant("task_#")),
    fc.array(subagentText(fc.constant("inst_#")), { maxLength: 3 }),
    fc.option(
      fc.tuple(
        subagentToolCall(fc.constant("inst_#"), fc.constant("sub_#")),
        subagentToolResult(fc.constant("inst_#"), fc.constant("sub_#")),
      ),
      { nil: undefined },
    ),
    subagentEnd(fc.constant("inst_#")),
    toolResult(fc.constant("task_#")),
    fc.boolean(),
  )
  .map(([call, start, texts, tool, end, result, endAfterResult]) => [
    call,
    start,
    ...texts,
    ...(tool ?? []),
    ...(endAfterResult ? [result, end] : [end, result]),
  ]);
const summaryBlock = fc
  .tuple(summarizationStart, fc.array(summarization, { maxLength: 3 }))
  .map(([start, chunks]) => [start, ...chunks]);

const evosciBlock: fc.Arbitrary<NativeEvent[]> = fc.oneof(
  { arbitrary: some(thinking(plausibleText)), weight: 2 },
  { arbitrary: some(text(plausibleText), 4), weight: 4 },
  { arbitrary: some(text()), weight: 1 },
  { arbitrary: toolBlock, weight: 4 },
  { arbitrary: subagentBlock, weight: 2 },
  { arbitrary: summaryBlock, weight: 1 },
  { arbitrary: one(toolSelection), weight: 1 },
  { arbitrary: one(panelDispatch(fc.constant("eval_#"))), weight: 1 },
  { arbitrary: one(interrupt(fc.constant("int_#"))), weight: 1 },
  { arbitrary: one(askUser(fc.constant("int_#"), fc.constant("ask_#"))), weight: 1 },
);

/** A run as EvoSci writes it: blocks, then done or error (or nothing), then perhaps stray events after it. */
export const evosciPlausible: fc.Arbitrary<NativeEvent[]> = fc
  .tuple(
    fc.array(evosciBlock, { maxLength: 10 }),
    fc.option(evosciTerminal, { nil: undefined, freq: 4 }),
    fc.array(evosciEvent, { maxLength: 2 }),
  )
  .map(([blocks, terminal, after]) => [...numberBlocks(blocks), ...(terminal ? [terminal] : []), ...after]);
