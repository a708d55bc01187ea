// Golden fixtures: a native stream in, the exact canonical stream out.
//   test/fixtures/golden/<protocol>/<name>.native.jsonl     what the backend wrote
//   test/fixtures/golden/<protocol>/<name>.canonical.jsonl  what agentstream must write
//   test/fixtures/golden/<protocol>/<name>.options.json     optional: how the run ended, flags
// The examples shipped to users (examples/<backend>/) follow the same layout and are checked the same way.
// UPDATE_GOLDEN=1 rewrites the .canonical.jsonl files; review the diff before keeping it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BACKEND_NAMES } from "../../../src/backends/registry.js";
import { strictProblems } from "../../helpers/strict-schema.js";
import { toJsonl, translate, translateChecked, type TranslateOptions } from "../../helpers/translate.js";
import { verifyEvents } from "../../helpers/verify.js";

const GOLDEN = fileURLToPath(new URL("../../fixtures/golden/", import.meta.url));
const EXAMPLES = fileURLToPath(new URL("../../../examples/", import.meta.url));
const FOLDERS = [
  ...readdirSync(GOLDEN).map((protocol) => ({ title: `golden ${protocol}`, dir: join(GOLDEN, protocol) })),
  ...BACKEND_NAMES.filter((backend) => existsSync(join(EXAMPLES, backend))).map((backend) => ({
    title: `example ${backend}`,
    dir: join(EXAMPLES, backend),
  })),
];
const UPDATE = process.env.UPDATE_GOLDEN === "1";

interface FixtureOptions extends TranslateOptions {
  /** Chunk sizes to feed the input in; the output must not depend on them. */
  chunkSizes?: number[];
}

for (const { title, dir } of FOLDERS) {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".native.jsonl"))
    .map((f) => f.slice(0, -".native.jsonl".length));
  describe(title, () => {
    for (const name of names) {
      it(name, async () => {
        const native = readFileSync(join(dir, `${name}.native.jsonl`));
        const optionsPath = join(dir, `${name}.options.json`);
        const options: FixtureOptions = existsSync(optionsPath) ? JSON.parse(readFileSync(optionsPath, "utf8")) : {};
        // With an output schema the answer is checked (in a worker) as normalize checks it.
        const translated = (chunkBytes?: number) =>
          options.outputSchema === undefined
            ? translate(native, { ...options, chunkBytes })
            : translateChecked(native, { ...options, chunkBytes });
        const { events } = await translated();
        const actual = toJsonl(events);
        const expectedPath = join(dir, `${name}.canonical.jsonl`);
        if (UPDATE) writeFileSync(expectedPath, actual);
        expect(actual).toBe(readFileSync(expectedPath, "utf8"));
        for (const event of events) expect(strictProblems(event), `seq ${event.seq}`).toEqual([]);
        expect(verifyEvents(events)).toEqual([]);
        for (const size of options.chunkSizes ?? [1, 7]) {
          expect(toJsonl((await translated(size)).events), `in chunks of ${size}`).toBe(actual);
        }
      });
    }
  });
}
