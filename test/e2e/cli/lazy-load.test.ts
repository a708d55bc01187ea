// Heavy dependencies load only when needed: OpenTelemetry when export is asked
// for, the ACP SDK when an ACP agent is driven. Start-up of the rest must not grow.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "../../helpers/cli.js";

const REGISTER = fileURLToPath(new URL("../../fixtures/module-log/register.mjs", import.meta.url));
// CommonJS modules loaded with require() (ajv, on demand) are logged by this one.
const REQUIRE_LOG = fileURLToPath(new URL("../../fixtures/module-log/require-log.cjs", import.meta.url));
const PI_NATIVE = fileURLToPath(new URL("../../../examples/pi/tool.native.jsonl", import.meta.url));
const STAND_IN = fileURLToPath(new URL("../../fixtures/backends/stand-in.mjs", import.meta.url));
const TRANSCRIPT = fileURLToPath(new URL("../../fixtures/backends/transcripts/evosci-success.jsonl", import.meta.url));
const ACP_AGENT = fileURLToPath(new URL("../../fixtures/acp/fake-agent.mjs", import.meta.url));
// Git may not keep the executable bit; the fake agent is run as a program.
chmodSync(ACP_AGENT, 0o755);
const ACP_RECORDING = fileURLToPath(new URL("../../fixtures/live/gemini-acp-0.61.0/text.jsonl", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "agentstream-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** The modules the built CLI resolved while running these arguments. */
function modulesOf(args: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const log = join(dir, `modules-${n++}.log`);
  const result = spawnSync(process.execPath, ["--require", REQUIRE_LOG, "--import", REGISTER, BIN, ...args], {
    env: {
      ...process.env,
      NO_COLOR: "1",
      AGENTSTREAM_MODULE_LOG: log,
      STANDIN_TRANSCRIPT: TRANSCRIPT,
      OTEL_EXPORTER_OTLP_TIMEOUT: "500",
      ...env,
    },
    encoding: "utf8",
  });
  expect(result.error).toBeUndefined();
  return readFileSync(log, "utf8").split("\n").filter(Boolean);
}

const otel = (modules: string[]) =>
  modules.filter(
    (url) => url.includes("@opentelemetry") || url.includes("/dist/export/") || url.includes("cli-progress"),
  );

describe("OpenTelemetry is loaded only when export is asked for", () => {
  it("--version, normalize and run load none of it", () => {
    const version = modulesOf(["--version"]);
    expect(version.some((url) => url.endsWith("/dist/cli/main.js"))).toBe(true);
    expect(otel(version)).toEqual([]);
    const normalize = modulesOf(["normalize", "--from", "pi", "--backend-exit", "0", PI_NATIVE]);
    expect(normalize.some((url) => url.endsWith("/dist/cli/normalize-command.js"))).toBe(true);
    expect(otel(normalize)).toEqual([]);
    const run = modulesOf(["run", "--backend", "evosci", "--bin", STAND_IN, "hello"]);
    expect(run.some((url) => url.endsWith("/dist/cli/run-command.js"))).toBe(true);
    expect(otel(run)).toEqual([]);
  });

  it("--otlp loads it (the check above can see it)", () => {
    // Port 9 (discard) has no collector here: the export fails fast, which does not matter.
    const modules = modulesOf([
      "normalize",
      "--from",
      "pi",
      "--backend-exit",
      "0",
      `--otlp=http://127.0.0.1:9`,
      PI_NATIVE,
    ]);
    expect(otel(modules).some((url) => url.includes("@opentelemetry/exporter-trace-otlp-proto"))).toBe(true);
    expect(otel(modules).some((url) => url.endsWith("/dist/export/otlp.js"))).toBe(true);
  });
});

const acpSdk = (modules: string[]) => modules.filter((url) => url.includes("@agentclientprotocol/sdk"));

describe("the ACP SDK is loaded only when an agent is driven over ACP", () => {
  it("--version, normalize (a recording of an ACP agent included) and a native run load none of it", () => {
    expect(acpSdk(modulesOf(["--version"]))).toEqual([]);
    expect(acpSdk(modulesOf(["normalize", "--from", "pi", "--backend-exit", "0", PI_NATIVE]))).toEqual([]);
    expect(acpSdk(modulesOf(["normalize", "--from", "acp", "--backend-exit", "0", ACP_RECORDING]))).toEqual([]);
    expect(acpSdk(modulesOf(["run", "--backend", "evosci", "--bin", STAND_IN, "hello"]))).toEqual([]);
  });

  it("run --backend acp loads it (the check above can see it)", () => {
    expect(acpSdk(modulesOf(["run", "--backend", "acp", "--bin", ACP_AGENT, "hello"])).length).toBeGreaterThan(0);
  });
});

const ajv = (modules: string[]) => modules.filter((url) => /\/node_modules\/ajv\/|^require:ajv(?:\/|$)/.test(url));

describe("ajv is loaded only when an answer schema is given (the canonical validator is compiled at build time)", () => {
  it("--version, normalize and a run without --output-schema load none of it", () => {
    expect(ajv(modulesOf(["--version"]))).toEqual([]);
    expect(ajv(modulesOf(["normalize", "--from", "pi", "--backend-exit", "0", PI_NATIVE]))).toEqual([]);
    expect(ajv(modulesOf(["run", "--backend", "evosci", "--bin", STAND_IN, "hello"]))).toEqual([]);
  });

  it("normalize --output-schema loads it (the check above can see it)", () => {
    const schema = join(dir, "answer.schema.json");
    writeFileSync(schema, JSON.stringify({ type: "object" }));
    const modules = modulesOf([
      "normalize",
      "--from",
      "pi",
      "--backend-exit",
      "0",
      "--output-schema",
      schema,
      PI_NATIVE,
    ]);
    expect(ajv(modules).length).toBeGreaterThan(0);
  });
});
