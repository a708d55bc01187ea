// Spans the collector has not taken yet wait in memory, then in a file in the temporary folder: under a
// TMPDIR that cannot hold that file they are lost, and the export's warning says why, naming TMPDIR
// (issue 37: the spill file under a bad TMPDIR).
import { join } from "node:path";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { exportWarning, OtlpExport } from "../../../src/export/otlp.js";
import { EXAMPLES, readEvents } from "../../helpers/otlp-spans.js";

const savedTmpdir = process.env.TMPDIR;
afterEach(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
});

describe("OTLP spans past the memory bound under an unusable TMPDIR", () => {
  it("are counted as not sent, and the warning names TMPDIR and what is wrong with it", async () => {
    const missing = join(EXAMPLES, "no-such-tmp");
    process.env.TMPDIR = missing;
    const otlp = new OtlpExport({
      content: false,
      version: "9.9.9",
      exporter: new InMemorySpanExporter(),
      // One span in memory: the rest of the run's spans go to the file.
      env: { OTEL_BSP_MAX_QUEUE_SIZE: "1" },
    });
    const { trace } = otlp.run();
    for (const event of readEvents(`${EXAMPLES}evosci/research.canonical.jsonl`)) trace.event(event);
    const report = await otlp.close();
    expect(report.notSent).toBeGreaterThan(0);
    expect(exportWarning("http://x/v1/traces", report)).toBe(
      `OTLP export to http://x/v1/traces failed: spans waiting past 1 could not be kept in a temporary file: TMPDIR ${missing}: no such directory (${report.notSent} of ${report.ended} spans not sent)`,
    );
  });
});
