import type { EventPayloads } from "../../canonical/events.js";
import { amount, count, defined, isObject, nonEmpty, objectOrEmpty } from "../../core/fields.js";

type Usage = EventPayloads["usage"];

/**
 * ACP's token counts (`Usage`: inputTokens, outputTokens, totalTokens, thoughtTokens,
 * cachedReadTokens, cachedWriteTokens), as the prompt's response carries them (OpenCode,
 * Copilot CLI) and Qwen Code's `_meta.usage` on an empty message chunk, one per model call.
 * ACP's input and output are totals: they include the cache and the thoughts, as the
 * canonical counts do; except where its own total says the input left the cache out (Codex's
 * adapter: inputTokens + cachedReadTokens + cachedWriteTokens + outputTokens = totalTokens), where
 * the cache is added back.
 */
export function acpUsage(
  value: unknown,
  scope: Usage["scope"],
  model: string | undefined,
  costUsd?: number,
): Usage | undefined {
  if (!isObject(value)) return undefined;
  const input = count(value.inputTokens);
  const output = count(value.outputTokens);
  if (input === undefined && output === undefined) return undefined;
  const read = count(value.cachedReadTokens) ?? 0;
  const write = count(value.cachedWriteTokens) ?? 0;
  const thought = count(value.thoughtTokens) ?? 0;
  const total = count(value.totalTokens);
  const cache = read + write;
  const apart = (input ?? 0) + cache + (output ?? 0);
  const cacheLeftOut = cache > 0 && (total === apart || total === apart + thought);
  return defined({
    scope,
    input_tokens: (input ?? 0) + (cacheLeftOut ? cache : 0),
    output_tokens: output ?? 0,
    cache_read_input_tokens: read > 0 ? read : undefined,
    cache_write_input_tokens: write > 0 ? write : undefined,
    reasoning_tokens: thought > 0 ? thought : undefined,
    total_tokens: total,
    model,
    cost_usd: costUsd,
    cost_source: costUsd !== undefined ? ("reported" as const) : undefined,
  });
}

/** Gemini CLI's `_meta.quota.token_count` on the prompt's response: the turn's totals, with the model of each. */
export function geminiQuotaUsage(meta: unknown, model: string | undefined): Usage | undefined {
  const quota = objectOrEmpty(objectOrEmpty(meta).quota);
  if (!isObject(quota.token_count)) return undefined;
  const t = quota.token_count;
  const models = Array.isArray(quota.model_usage) ? quota.model_usage.filter(isObject) : [];
  const named = models.length === 1 ? nonEmpty(models[0]!.model) : undefined;
  return defined({
    scope: "run" as const,
    input_tokens: count(t.input_tokens) ?? 0,
    output_tokens: count(t.output_tokens) ?? 0,
    model: named ?? model,
  });
}

/** The cost a `usage_update` states (Claude Code's adapter), in USD only. */
export function reportedCostUsd(update: Record<string, unknown>): number | undefined {
  const cost = objectOrEmpty(update.cost);
  return cost.currency === "USD" ? amount(cost.amount) : undefined;
}
