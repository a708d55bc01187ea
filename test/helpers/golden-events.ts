import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const GOLDEN = fileURLToPath(new URL("../fixtures/golden/", import.meta.url));

/** Every canonical event of the golden fixtures, parsed (key order as written). */
export function goldenEvents(): Record<string, unknown>[] {
  return readdirSync(GOLDEN).flatMap((protocol) =>
    readdirSync(join(GOLDEN, protocol))
      .filter((f) => f.endsWith(".canonical.jsonl"))
      .flatMap((f) =>
        readFileSync(join(GOLDEN, protocol, f), "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      ),
  );
}

/** Each event, then variants with one field removed or given a value of another type. */
export function* variants(event: Record<string, unknown>): Generator<Record<string, unknown>> {
  yield event;
  for (const key of Object.keys(event)) {
    const { [key]: _, ...without } = event;
    yield without;
    for (const value of [null, "x", "", 0, -1, 1.5, true, [], {}, { code: null, signal: "SIGTERM" }])
      yield { ...event, [key]: value };
  }
  yield { ...event, type: "something.new" };
  yield { ...event, extra_field: 1 };
}
