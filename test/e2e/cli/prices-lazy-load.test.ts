// The price table is loaded only when a cost must be estimated: start-up and
// streams whose backend reports its costs do not grow.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "../../helpers/cli.js";

const REGISTER = fileURLToPath(new URL("../../fixtures/module-log/register.mjs", import.meta.url));
const REQUIRE_LOG = fileURLToPath(new URL("../../fixtures/module-log/require-log.cjs", import.meta.url));
const PI_NATIVE = fileURLToPath(new URL("../../../examples/pi/tool.native.jsonl", import.meta.url));
const GEMINI_PRICED = fileURLToPath(new URL("../../fixtures/golden/gemini/priced.native.jsonl", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "agentstream-prices-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function pricesLoaded(args: string[]): boolean {
  const log = join(dir, `modules-${n++}.log`);
  const result = spawnSync(process.execPath, ["--require", REQUIRE_LOG, "--import", REGISTER, BIN, ...args], {
    env: { ...process.env, NO_COLOR: "1", AGENTSTREAM_MODULE_LOG: log },
    encoding: "utf8",
  });
  expect(result.error).toBeUndefined();
  expect(result.status).toBe(0);
  return readFileSync(log, "utf8").includes("genai-prices");
}

describe("the price table is loaded lazily", () => {
  it("--version and a stream whose costs are reported (pi) load none of it", () => {
    expect(pricesLoaded(["--version"])).toBe(false);
    expect(pricesLoaded(["normalize", "--from", "pi", "--backend-exit", "0", PI_NATIVE])).toBe(false);
  });

  it("a stream that needs an estimate (Gemini CLI, a known model) loads it (the check above can see it)", () => {
    expect(pricesLoaded(["normalize", "--from", "gemini", "--backend-exit", "0", GEMINI_PRICED])).toBe(true);
  });
});
