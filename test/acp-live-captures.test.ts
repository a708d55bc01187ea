// The ACP live suite's captures (test/live/acp.live.ts with AGENTSTREAM_LIVE_CAPTURE=1): what each real agent
// wrote on stdout while `run --backend acp` drove it. golden.test.ts pins their canonical streams; here, each
// recording read back ends as the live run ended (its status, exit code and error), so a live run and its
// recording say the same, whatever the client answered (save where the stdout cannot show it: RECORDING_ALONE).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { translate, type TranslateOptions } from "./helpers/translate.js";

const DIR = new URL("./fixtures/golden/acp-live/", import.meta.url).pathname;

interface Entry {
  file: string;
  agent: string;
  scenario: string;
  live: { status: string; exit_code: number; error_code: string | null };
}

const manifest = JSON.parse(readFileSync(join(DIR, "manifest.json"), "utf8")) as Entry[];

/**
 * Where the agent's stdout cannot show how the live run ended: agentstream refused the rules to an agent that
 * never asks (pi-acp) once it answered initialize, and closed its stdin; read alone, that stdout stops before
 * any prompt's response, which is a crash.
 */
const RECORDING_ALONE: Record<string, Entry["live"]> = {
  refused: { status: "failed", exit_code: 76, error_code: "backend_crashed" },
};

describe("ACP live captures read back", () => {
  it("cover at least four agents", () => {
    expect(new Set(manifest.map((e) => e.agent)).size).toBeGreaterThanOrEqual(4);
  });

  for (const entry of manifest) {
    const expected = RECORDING_ALONE[entry.scenario] ?? entry.live;
    it(`${entry.file} (${entry.agent}, ${entry.scenario}) ends as the live run did: ${expected.status}, exit ${expected.exit_code}`, () => {
      const native = readFileSync(join(DIR, entry.file));
      const options = JSON.parse(
        readFileSync(join(DIR, entry.file.replace(/\.native\.jsonl$/, ".options.json")), "utf8"),
      ) as TranslateOptions;
      const finished = translate(native, options).events.at(-1) as unknown as Record<string, unknown> & {
        error?: { code: string };
      };
      expect(finished).toMatchObject({
        type: "run.finished",
        status: expected.status,
        exit_code: expected.exit_code,
      });
      expect(finished.error?.code ?? null).toBe(expected.error_code);
    });
  }
});
