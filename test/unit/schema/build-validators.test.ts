// The build step that compiles the canonical schema (src/schema/build-validators.ts): it prints nothing
// (ajv's `unicode` option, deprecated, printed a DEPRECATED line on every build), and the validator it
// writes counts minLength as before: in UTF-16 code units, which for "minLength": 1 is the schema's rule.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { goldenEvents } from "../../helpers/golden-events.js";
import { publishedValidator } from "../../helpers/verify.js";

const STEP = fileURLToPath(new URL("../../../dist/schema/build-validators.js", import.meta.url));
const BUILT = new URL("../../../dist/schema/canonical-validator.generated.js", import.meta.url);

type Validator = ((event: unknown) => boolean) & { errors?: unknown[] | null };

describe("the validator build step", () => {
  it("prints nothing, and writes the validator the build ships", () => {
    const dir = mkdtempSync(join(tmpdir(), "agentstream-validators-"));
    try {
      const out = join(dir, "validator.js");
      const run = spawnSync(process.execPath, [STEP, out], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("");
      expect(readFileSync(out, "utf8")).toBe(readFileSync(BUILT, "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("minLength: an empty id is refused with ajv's own error; one code unit, a surrogate pair, a lone surrogate pass", async () => {
    const built = ((await import(BUILT.href)) as { default: Validator }).default;
    const event = goldenEvents().find((e) => e.type === "tool.started")!;
    for (const id of ["a", "😀", "\uD800", "call_1"]) {
      for (const field of ["run_id", "tool_call_id"]) {
        const candidate = { ...event, [field]: id };
        expect(built(candidate), `${field} ${JSON.stringify(id)}`).toBe(true);
        expect(publishedValidator(candidate)).toBe(true);
      }
    }
    for (const field of ["run_id", "tool_call_id"]) {
      const candidate = { ...event, [field]: "" };
      expect(built(candidate)).toBe(false);
      expect(publishedValidator(candidate)).toBe(false);
      expect(built.errors).toEqual([
        {
          instancePath: `/${field}`,
          schemaPath: expect.stringMatching(new RegExp(`/${field}/minLength$`)),
          keyword: "minLength",
          params: { limit: 1 },
          message: "must NOT have fewer than 1 characters",
        },
      ]);
    }
    // Counted as the string's length, as before: no loop over each id.
    expect(readFileSync(BUILT, "utf8")).not.toContain("ucs2length");
  });
});
