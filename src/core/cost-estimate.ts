// A cost for usage the backend reported without one, from the model and the
// token counts, with @pydantic/genai-prices (pinned: its data is bundled, no
// network). The table is loaded only when a first estimate is needed.
import { createRequire } from "node:module";
import type { TokenCounts } from "../canonical/events.js";

/** The price data estimates come from: usage.price_data. Pinned in package.json; test/unit/core/cost-estimate.test.ts checks it. */
export const PRICE_DATA = "genai-prices 0.1.8";

type CalcPrice = (
  usage: Record<string, number>,
  model: string,
  options?: { timestamp?: Date },
) => {
  total_price: number;
} | null;

let calcPrice: CalcPrice | undefined;
/** Models the table does not know, so that a long stream of their usage is not looked up again and again. */
const unknown = new Set<string>();
const UNKNOWN_KEPT = 1024;

function table(): CalcPrice {
  calcPrice ??= (createRequire(import.meta.url)("@pydantic/genai-prices") as { calcPrice: CalcPrice }).calcPrice;
  return calcPrice;
}

/**
 * The estimated USD cost of these tokens of `model` at `at` (prices change
 * with dates), or undefined where the table does not know the model. `calls`:
 * how many model calls the counts sum (a run's total), so that a price tier
 * by prompt size applies per call, not to the sum.
 */
export function estimateCost(usage: TokenCounts, model: string, at: Date, calls = 1): number | undefined {
  if (unknown.has(model)) return undefined;
  const n = Math.max(1, calls);
  const part = (x: number | undefined): number | undefined => (x === undefined ? undefined : x / n);
  const counts: Record<string, number> = {
    input_tokens: usage.input_tokens / n,
    output_tokens: usage.output_tokens / n,
  };
  const cacheRead = part(usage.cache_read_input_tokens);
  const cacheWrite = part(usage.cache_write_input_tokens);
  const reasoning = part(usage.reasoning_tokens);
  // The table's input includes the cached parts and its output the reasoning, as the canonical counts do.
  if (cacheRead) counts.cache_read_tokens = cacheRead;
  if (cacheWrite) counts.cache_write_tokens = cacheWrite;
  if (reasoning) counts.output_reasoning_tokens = reasoning;
  let price: ReturnType<CalcPrice>;
  try {
    price = table()(counts, model, { timestamp: at });
  } catch {
    // Counts the table finds inconsistent (cache parts above the input): no estimate rather than a wrong one.
    return undefined;
  }
  if (price === null) {
    if (unknown.size < UNKNOWN_KEPT) unknown.add(model);
    return undefined;
  }
  if (!Number.isFinite(price.total_price)) return undefined;
  return Math.round(price.total_price * n * 1e12) / 1e12;
}
