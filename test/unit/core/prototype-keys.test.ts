// Text from outside agentstream (an agent's name, a native tool name, an event's type, a file's extension, a
// tool argument's key) is looked up in tables and copied into objects: a name that is also a member of
// Object.prototype ("constructor", "toString", "__proto__") must be a name like any other. An ACP agent named
// "constructor" was refused the rules as one that never asks (issue 45).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quirksOf } from "../../../src/backends/acp/agents.js";
import { Redactor } from "../../../src/core/redactor.js";
import { formatOfPath } from "../../../src/report/formats.js";
import { fuzzParameters } from "../../helpers/fuzz/settings.js";
import { parseJsonl, runCli } from "../../helpers/cli.js";
import { translate } from "../../helpers/translate.js";

/** Every name Object.prototype answers to, __proto__ included. */
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype);
const FAKE_AGENT = fileURLToPath(new URL("../../fixtures/acp/fake-agent.mjs", import.meta.url));
const KNOWN_AGENTS = ["Copilot", "OpenCode", "pi-acp", "@agentclientprotocol/claude-agent-acp"];

/** A name: one of Object.prototype's, or any text. */
const names = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string());

describe("names that are Object.prototype's members", () => {
  it("covers __proto__ and the methods", () => {
    expect(PROTOTYPE_KEYS).toEqual(expect.arrayContaining(["__proto__", "constructor", "toString", "hasOwnProperty"]));
  });

  it("an ACP agent of any name but the known ones has no quirks", () => {
    const none = quirksOf(undefined);
    fc.assert(
      fc.property(
        names.filter((name) => !KNOWN_AGENTS.includes(name)),
        (name) => {
          expect(quirksOf({ name })).toEqual(none);
        },
      ),
      fuzzParameters(),
    );
  });

  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"])
    it(`an ACP agent named ${name} is asked by the rules like any agent`, async () => {
      const run = await runCli(["run", "--backend", "acp", "--bin", FAKE_AGENT, "--allow-tool", "shell", "--", "ask"], {
        env: { FAKE_ACP_NAME: name },
      });
      expect(run.stderr).not.toContain("never asks");
      expect(run.code).toBe(0);
      const events = parseJsonl(run.stdout);
      expect(events.find((e) => e.type === "session.started")).toMatchObject({ agent_info: { name } });
      expect(events.find((e) => e.type === "input.requested")).toMatchObject({ kind: "approval" });
    });

  it("a report file's extension names a format only when it is one", () => {
    fc.assert(
      fc.property(names, (ext) => {
        const format = formatOfPath(`report.${ext}`);
        expect(format === undefined || ["md", "json", "html"].includes(format)).toBe(true);
      }),
      fuzzParameters(),
    );
  });

  it("report --out FILE.constructor is refused as an unknown format, not an internal error", async () => {
    const stream = fileURLToPath(new URL("../../fixtures/golden/copilot/denied.canonical.jsonl", import.meta.url));
    const run = await runCli(["report", stream, "--out", "/nonexistent/report.constructor"]);
    expect(run.stderr).not.toMatch(/internal error|TypeError/);
    expect(run.code).toBe(2);
  });

  it("a stream's events of such a type are reported on like any unknown type", async () => {
    const head = { v: 1, ts: "2026-01-01T00:00:00.000Z", elapsed_ms: 0, run_id: "r", backend: "pi" };
    const lines = [
      { ...head, seq: 1, type: "run.started", agentstream_version: "0", mode: "normalize" },
      ...PROTOTYPE_KEYS.map((type, i) => ({ ...head, seq: i + 2, type })),
    ];
    const run = await runCli(["report", "--format", "json", "-"], {
      input: lines.map((l) => JSON.stringify(l)).join("\n"),
    });
    expect(run.stderr).not.toMatch(/cannot read|not iterable|internal error/);
    expect(run.code).toBe(0);
  });

  it("a Copilot CLI tool refused under such a name is named as it is in the resume hint", () => {
    const native = readFileSync(
      fileURLToPath(new URL("../../fixtures/golden/copilot/denied.native.jsonl", import.meta.url)),
      "utf8",
    );
    for (const name of PROTOTYPE_KEYS) {
      const renamed = native
        .replaceAll('"toolName":"bash"', `"toolName":"${name}"`)
        .replaceAll('"name":"bash"', `"name":"${name}"`);
      const finished = translate(renamed, { from: "copilot" }).events.at(-1) as { resume?: { hint: string } };
      expect(finished.resume?.hint).toContain(name);
      expect(finished.resume?.hint).not.toMatch(/native code|function|\[object/);
    }
  });

  it("a key named __proto__ survives redaction, in an event and in a JSON line", () => {
    const redactor = new Redactor(["sk-secret-value-0123456789"]);
    const args = JSON.parse(
      '{"__proto__":{"token":"sk-secret-value-0123456789"},"toString":"sk-secret-value-0123456789"}',
    );
    const hidden = redactor.value({ type: "tool.started", args }) as { args: Record<string, unknown> };
    expect(Object.keys(hidden.args)).toEqual(["__proto__", "toString"]);
    expect(JSON.stringify(hidden)).not.toContain("sk-secret");
    const line = redactor.jsonLine(JSON.stringify({ type: "tool.started", args }));
    expect(Object.keys((JSON.parse(line) as { args: object }).args)).toEqual(["__proto__", "toString"]);
    expect(line).not.toContain("sk-secret");
  });
});
