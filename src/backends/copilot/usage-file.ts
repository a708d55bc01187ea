import { count, defined, isObject, objectOrEmpty } from "../../core/fields.js";
import { draft, type Draft } from "../../core/translator.js";

/** What the usage events carry as their native source: the file, not a line of the stream. */
const USAGE_FILE_SOURCE = "usage-output-file";

/**
 * The session's totals per model from the JSON `--usage-output-file` writes
 * (`modelMetrics.<model>.usage`): one run-scope usage event per model.
 * `inputTokens` already includes the cached part, as the canonical
 * input_tokens does. Undefined when the text is not such a file.
 */
export function usageFileDrafts(text: string): Draft<"usage">[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !isObject(parsed.modelMetrics)) return undefined;
  const drafts: Draft<"usage">[] = [];
  for (const [model, metrics] of Object.entries(parsed.modelMetrics)) {
    const usage = objectOrEmpty(objectOrEmpty(metrics).usage);
    const input = count(usage.inputTokens);
    const output = count(usage.outputTokens);
    if (input === undefined || output === undefined) return undefined;
    drafts.push(
      draft(
        "usage",
        defined({
          scope: "run" as const,
          input_tokens: input,
          output_tokens: output,
          cache_read_input_tokens: count(usage.cacheReadTokens),
          cache_write_input_tokens: count(usage.cacheWriteTokens),
          reasoning_tokens: count(usage.reasoningTokens),
          model,
        }),
        { native: USAGE_FILE_SOURCE },
      ),
    );
  }
  return drafts;
}
