// Atomic / pi `--mode json` events (see the protocol notes): each type with its
// fields, single events with pooled ids for random orders, and turns in the order
// a real run writes them.
import fc from "fast-check";
import type { NativeEvent } from "../../../src/core/translator.js";
import { numberBlocks, unknownEvent } from "./blocks.js";
import { anyText, errorMessage, plausibleText, pooledId } from "./text.js";
import { anyJson, wildVariant } from "./wild.js";

const toolName = fc.constantFrom("bash", "read", "edit", "");
const args = fc.oneof(fc.constant({}), fc.dictionary(fc.string({ maxLength: 5 }), anyJson, { maxKeys: 3 }));
const count = fc.oneof(
  { arbitrary: fc.nat(100_000), weight: 5 },
  { arbitrary: fc.constantFrom(0, 1e308, Number.MAX_SAFE_INTEGER), weight: 1 },
);
const cost = fc.oneof(
  { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 5 },
  { arbitrary: fc.constantFrom(0, 1e308), weight: 1 },
);
const usage = fc.record({
  input: count,
  output: count,
  cacheRead: count,
  cacheWrite: count,
  totalTokens: count,
  cost: fc.record({ input: cost, output: cost, cacheRead: cost, cacheWrite: cost, total: cost }),
});
const stopReason = fc.constantFrom("stop", "toolUse", "error", "aborted", "length", "pending");
const textBlocks = (texts: string[]) => texts.map((text) => ({ type: "text", text }));
const contentBlock = fc.oneof(
  fc.record({ type: fc.constant("text"), text: anyText }),
  fc.record({ type: fc.constant("thinking"), thinking: anyText }),
  fc.record({ type: fc.constant("toolCall"), id: pooledId("call_"), name: toolName, arguments: args }),
  fc.record({ type: fc.constant("image"), data: fc.constant("iVBORw0KGgo="), mimeType: fc.constant("image/png") }),
);
const role = fc.constantFrom("user", "assistant", "toolResult", "system", "custom");
const message = fc.record(
  {
    role,
    content: fc.array(contentBlock, { maxLength: 3 }),
    provider: fc.constantFrom("fake", ""),
    model: fc.constantFrom("fake-model", ""),
    usage,
    stopReason,
    errorMessage,
  },
  { requiredKeys: ["role", "content"] },
);
const messageEvent = (type: string) => fc.record({ type: fc.constant(type), message });
const updateKind = fc.constantFrom(
  "text_start",
  "text_delta",
  "text_end",
  "thinking_start",
  "thinking_delta",
  "thinking_end",
  "toolcall_start",
  "toolcall_delta",
  "toolcall_end",
  "start",
  "done",
  "error",
  "mystery_delta",
);
const messageUpdate = fc.record({
  type: fc.constant("message_update"),
  usage,
  assistantMessageEvent: fc.record(
    { type: updateKind, contentIndex: fc.nat(3), delta: anyText, content: anyText },
    { requiredKeys: ["type"] },
  ),
});
const toolOutput = fc.record({
  content: fc.array(fc.oneof(fc.record({ type: fc.constant("text"), text: anyText }), anyJson), { maxLength: 2 }),
});
const callId = pooledId("call_");
const toolStart = (id: fc.Arbitrary<string>) =>
  fc.record({ type: fc.constant("tool_execution_start"), toolCallId: id, toolName, args });
const toolUpdate = (id: fc.Arbitrary<string>) =>
  fc.record({ type: fc.constant("tool_execution_update"), toolCallId: id, toolName, args, partialResult: toolOutput });
const toolEnd = (id: fc.Arbitrary<string>) =>
  fc.record(
    {
      type: fc.constant("tool_execution_end"),
      toolCallId: id,
      toolName,
      result: toolOutput,
      isError: fc.boolean(),
      durationMs: fc.nat(),
    },
    { requiredKeys: ["type", "toolCallId", "toolName", "result", "isError"] },
  );
const retry = fc.record({ attempt: fc.nat(5), maxAttempts: fc.nat(5), delayMs: fc.nat(10_000), errorMessage });
const compactionResult = fc.oneof(
  fc.record({ summary: anyText, tokensBefore: count, estimatedTokensAfter: count }),
  fc.record({
    compactedText: anyText,
    tokensBefore: count,
    stats: fc.record({ tokensBefore: count, tokensAfter: count }),
  }),
);
const compactionReason = fc.constantFrom("manual", "threshold", "overflow", "other");

const session = fc.record({
  type: fc.constant("session"),
  version: fc.constantFrom(3, 4),
  id: pooledId("sess_"),
  timestamp: fc.constant("2026-01-01T00:00:00.000Z"),
  cwd: fc.constantFrom("/w", ""),
});
const bare = (type: string) => fc.constant({ type });

/** Any one Atomic event, ids from a small pool: in a random sequence they repeat, go missing and mismatch. */
export const atomicEvent: fc.Arbitrary<NativeEvent> = fc.oneof(
  session,
  bare("agent_start"),
  fc.record(
    { type: fc.constant("agent_end"), messages: fc.constant([]), willRetry: fc.boolean() },
    { requiredKeys: ["type", "messages"] },
  ),
  fc.record({ type: fc.constant("agent_settled"), aborted: fc.boolean() }, { requiredKeys: ["type"] }),
  bare("turn_start"),
  fc.record({ type: fc.constant("turn_end"), message, toolResults: fc.constant([]) }),
  messageEvent("message_start"),
  messageEvent("message_end"),
  messageUpdate,
  toolStart(callId),
  toolUpdate(callId),
  toolEnd(callId),
  retry.map((r) => ({ type: "auto_retry_start", ...r })),
  fc.record(
    { type: fc.constant("auto_retry_end"), success: fc.boolean(), attempt: fc.nat(5), finalError: errorMessage },
    { requiredKeys: ["type", "success", "attempt"] },
  ),
  retry.map((r) => ({ type: "summarization_retry_scheduled", ...r })),
  fc.record({
    type: fc.constant("summarization_retry_attempt_start"),
    source: fc.constantFrom("compaction", "branchSummary"),
    reason: compactionReason,
  }),
  bare("summarization_retry_finished"),
  fc.record({ type: fc.constant("compaction_start"), reason: compactionReason }),
  fc.record(
    {
      type: fc.constant("compaction_end"),
      reason: compactionReason,
      result: compactionResult,
      aborted: fc.boolean(),
      willRetry: fc.boolean(),
      errorMessage,
    },
    { requiredKeys: ["type", "reason", "aborted", "willRetry"] },
  ),
  fc.record({
    type: fc.constant("model_changed"),
    model: fc.oneof(fc.record({ provider: fc.constant("fake"), id: anyText }), anyText),
    previousModel: fc.record({ provider: fc.constant("fake"), id: anyText }),
    source: fc.constantFrom("set", "cycle", "restore", "fallback", "other"),
  }),
  fc.record({
    type: fc.constant("model_fallback_start"),
    from: anyText,
    to: anyText,
    reason: anyText,
    attempt: fc.nat(3),
  }),
  fc.record(
    {
      type: fc.constant("model_fallback_end"),
      success: fc.boolean(),
      from: anyText,
      to: anyText,
      finalError: errorMessage,
    },
    { requiredKeys: ["type", "success"] },
  ),
  fc.record({ type: fc.constant("agent_continue_error"), source: fc.constant("followUp"), errorMessage }),
  fc.record({
    type: fc.constant("queue_update"),
    steering: fc.array(anyText, { maxLength: 2 }),
    followUp: fc.array(anyText, { maxLength: 2 }),
  }),
  fc.record({ type: fc.constant("session_info_changed"), name: anyText }),
  fc.record({ type: fc.constant("thinking_level_changed"), level: fc.constantFrom("off", "high") }),
  fc.record({ type: fc.constant("entry_appended"), entry: anyJson }),
  fc.record({
    type: fc.constant("bash_execution_update"),
    id: anyText,
    channel: fc.constantFrom("stdout", "stderr"),
    delta: anyText,
  }),
  unknownEvent,
);

/** Any Atomic event, sometimes with wrong field types and unknown fields. */
export const atomicWildEvent = fc.oneof(
  { arbitrary: atomicEvent, weight: 3 },
  { arbitrary: wildVariant(atomicEvent), weight: 1 },
);

const update = (type: string, fields: Record<string, unknown>) => ({
  type: "message_update",
  usage: {},
  assistantMessageEvent: { type, contentIndex: 0, ...fields },
});

/** One turn as Atomic writes it; "#" in ids becomes the turn's number. */
const turn: fc.Arbitrary<NativeEvent[]> = fc
  .record({
    user: fc.boolean(),
    thinking: fc.array(plausibleText, { maxLength: 2 }),
    texts: fc.array(plausibleText, { maxLength: 3 }),
    tools: fc.array(
      fc.record({
        name: toolName,
        args,
        output: anyText,
        isError: fc.boolean(),
        updates: fc.array(anyText, { maxLength: 2 }),
      }),
      { maxLength: 2 },
    ),
    stopReason,
    errorMessage,
    usage,
  })
  .map((t) => {
    const calls = t.tools.map((tool, i) => ({ ...tool, id: `call_#_${i}` }));
    const assistant = {
      role: "assistant",
      content: [
        ...t.thinking.map((thinking) => ({ type: "thinking", thinking })),
        ...textBlocks(t.texts),
        ...calls.map((c) => ({ type: "toolCall", id: c.id, name: c.name, arguments: c.args })),
      ],
      provider: "fake",
      model: "fake-model",
      usage: t.usage,
      stopReason: t.stopReason,
      ...(t.stopReason === "error" ? { errorMessage: t.errorMessage } : {}),
    };
    const user = { role: "user", content: textBlocks(["do it"]) };
    return [
      { type: "turn_start" },
      ...(t.user
        ? [
            { type: "message_start", message: user },
            { type: "message_end", message: user },
          ]
        : []),
      { type: "message_start", message: { ...assistant, content: [], stopReason: "pending" } },
      ...t.thinking.flatMap((delta) => [
        update("thinking_start", {}),
        update("thinking_delta", { delta }),
        update("thinking_end", { content: delta }),
      ]),
      ...t.texts.flatMap((delta) => [
        update("text_start", {}),
        update("text_delta", { delta }),
        update("text_end", { content: delta }),
      ]),
      ...calls.flatMap((c) => [
        update("toolcall_start", {}),
        update("toolcall_delta", { delta: JSON.stringify(c.args) }),
        update("toolcall_end", { toolCall: { type: "toolCall", id: c.id, name: c.name, arguments: c.args } }),
      ]),
      { type: "message_end", message: assistant },
      ...calls.flatMap((c) => [
        { type: "tool_execution_start", toolCallId: c.id, toolName: c.name, args: c.args },
        ...c.updates.map((text) => ({
          type: "tool_execution_update",
          toolCallId: c.id,
          toolName: c.name,
          args: c.args,
          partialResult: { content: textBlocks([text]) },
        })),
        {
          type: "tool_execution_end",
          toolCallId: c.id,
          toolName: c.name,
          result: { content: textBlocks([c.output]), details: {} },
          isError: c.isError,
        },
      ]),
      ...calls.flatMap((c) => {
        const result = {
          role: "toolResult",
          toolCallId: c.id,
          toolName: c.name,
          content: textBlocks([c.output]),
          isError: c.isError,
        };
        return [
          { type: "message_start", message: result },
          { type: "message_end", message: result },
        ];
      }),
      { type: "turn_end", message: assistant, toolResults: [] },
    ];
  });

// Things that happen between turns: retries, compaction, model and session changes.
const interlude: fc.Arbitrary<NativeEvent[]> = atomicEvent
  .filter(
    (e) =>
      ![
        "session",
        "turn_start",
        "turn_end",
        "message_start",
        "message_end",
        "message_update",
        "agent_start",
        "agent_settled",
      ].includes(e.type),
  )
  .map((e) => [e]);

const prompt: fc.Arbitrary<NativeEvent[]> = fc
  .tuple(
    fc.array(fc.oneof({ arbitrary: turn, weight: 4 }, { arbitrary: interlude, weight: 1 }), { maxLength: 4 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([blocks, settles, aborted]) => [
    { type: "agent_start" },
    ...numberBlocks(blocks),
    { type: "agent_end", messages: [] },
    ...(settles ? [aborted ? { type: "agent_settled", aborted: true } : { type: "agent_settled" }] : []),
  ]);

/** A run as Atomic writes it: the session header, one or two prompts, then perhaps stray events after the end. */
export const atomicPlausible: fc.Arbitrary<NativeEvent[]> = fc
  .tuple(session, fc.array(prompt, { minLength: 1, maxLength: 2 }), fc.array(atomicEvent, { maxLength: 2 }))
  .map(([header, prompts, after]) => [header, ...prompts.flat(), ...after]);
