// Each backend's native catalog (the types its translator knows, with the fields
// it reads) against what the real releases wrote (test/fixtures/live), and the
// live suite's drift check built on it (test/helpers/live/drift.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseNativeLine } from "../../../src/core/native-line.js";
import { captureReader } from "../../helpers/capture-folders.js";
import { BACKENDS } from "../../../src/backends/registry.js";
import { catalogOf, driftOf } from "../../helpers/live/drift.js";
import { latestTargets, newerThan } from "../../helpers/live/latest.mjs";

const LIVE = fileURLToPath(new URL("../../fixtures/live/", import.meta.url));
/** What real ACP agents wrote while `run --backend acp` drove them (the ACP live suite's captures). */
const ACP_LIVE = fileURLToPath(new URL("../../fixtures/golden/acp-live/", import.meta.url));

function nativeTypesIn(dir: string, suffix = ".jsonl"): Set<string> {
  const types = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(suffix))) {
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      try {
        // As agentstream reads it: a JSON-RPC message (ACP) is typed by its method, or as a result or an error.
        const parsed = parseNativeLine(line);
        if (parsed.ok) types.add(parsed.event.type);
      } catch {
        // a cut last line: not a type
      }
    }
  }
  return types;
}

describe("native catalogs", () => {
  const captures = readdirSync(LIVE, { withFileTypes: true }).filter((d) => d.isDirectory());

  it.each(captures.map((d) => d.name))("%s: every native type the release wrote is in its catalog", (id) => {
    const backend = captureReader(id);
    const catalog = catalogOf(backend);
    expect(catalog, `${backend} declares a catalog`).toBeDefined();
    const unknown = [...nativeTypesIn(join(LIVE, id))].filter((t) => !Object.hasOwn(catalog!, t));
    expect(unknown).toEqual([]);
  });

  it("acp: every native type the agents driven live wrote is in its catalog", () => {
    const unknown = [...nativeTypesIn(ACP_LIVE, ".native.jsonl")].filter((t) => !Object.hasOwn(catalogOf("acp")!, t));
    expect(unknown).toEqual([]);
  });

  it("every catalog reads each type's `type`, or names a type kept whole", () => {
    for (const backend of BACKENDS) {
      for (const [type, fields] of Object.entries(backend.nativeCatalog ?? {})) {
        // A JSON-RPC message (ACP) has no `type`: its method, or its being a response, types it.
        const typed =
          fields.includes("type") || fields.includes("method") || fields.includes("result") || fields.includes("error");
        expect(fields.length === 0 || typed, `${backend.name} ${type}`).toBe(true);
      }
    }
  });
});

describe("driftOf", () => {
  const catalog = { text: ["type", "content"], goal_state: [] };

  it("names native types kept as backend.event that the catalog lacks, once each", () => {
    const events = [
      { type: "backend.event", native_type: "goal_state", raw: { type: "goal_state" } },
      { type: "backend.event", native_type: "brand_new", raw: { type: "brand_new" } },
      { type: "backend.event", native_type: "brand_new", raw: { type: "brand_new" } },
    ];
    expect(driftOf(events, catalog).unknownTypes).toEqual(["brand_new"]);
  });

  it("counts the fields of known types the translator does not read, where the native object is kept", () => {
    const events = [
      { type: "message.delta", raw: { type: "text", content: "a", chunk_id: 3 } },
      { type: "message.delta", raw: { type: "text", content: "b", lang: "en" } },
      { type: "message.delta" },
    ];
    expect(driftOf(events, catalog).unreadFields).toEqual({ text: ["chunk_id", "lang"] });
    // A type kept whole (goal_state) loses none of its fields.
    expect(driftOf([{ type: "backend.event", raw: { type: "goal_state", x: 1 } }], catalog).unreadFields).toEqual({});
  });

  it("says nothing was checked for a backend without a catalog", () => {
    const events = [{ type: "backend.event", native_type: "x", raw: { type: "x" } }];
    expect(driftOf(events, undefined)).toEqual({ catalog: false, unknownTypes: [], unreadFields: {} });
  });
});

describe("latestTargets (npm run test:live -- --latest)", () => {
  const pins = [
    { id: "pi-0.84.4", backend: "pi", registry: "npm", package: "@e/pi", version: "0.84.4", node: "22" },
    { id: "pi-1.6.0", backend: "pi", registry: "npm", package: "@e/pi", version: "1.6.0", node: "22" },
    {
      id: "claude-2.1.332",
      backend: "claude",
      registry: "npm",
      package: "@a/claude",
      version: "2.1.332",
      node: "native",
    },
    { id: "codex-0.171.0", backend: "codex", registry: "npm", package: "@o/codex", version: "0.171.0", node: "native" },
    { id: "evosci-0.3.8", backend: "evosci", registry: "pypi", package: "EvoScientist", version: "0.3.8" },
  ];
  const platform = `${process.platform}-${process.arch}`;
  const lookup = {
    npmLatest: async (name: string) =>
      ({ "@e/pi": "1.7.0", "@a/claude": "2.1.332", [`@a/claude-${platform}`]: "2.1.335", "@o/codex": "0.171.0" })[
        name
      ]!,
    npmOptionalDependencies: async (name: string, version: string) =>
      name === "@a/claude"
        ? { [`@a/claude-${platform}`]: version }
        : { [`@o/codex-${platform}`]: `npm:@o/codex@${version}-${platform}` },
    pypiNewest: async () => "0.3.9",
  };

  it("adds the newest release beside the newest pin of each backend, and nothing where the pin is the newest", async () => {
    const found = await latestTargets(pins, lookup);
    expect(found.map((t) => [t.id, t.latestOf])).toEqual([
      ["pi-1.7.0", "pi-1.6.0"],
      ["claude-2.1.335", "claude-2.1.332"],
      ["evosci-0.3.9", "evosci-0.3.8"],
    ]);
  });

  it("takes a platform binary that runs ahead of its wrapper from its own package; an aliased one is the wrapper's", async () => {
    const found = await latestTargets(pins, lookup);
    expect(found.find((t) => t.backend === "claude")).toMatchObject({
      package: "@a/claude",
      platformPackage: `@a/claude-${platform}`,
      version: "2.1.335",
    });
    expect(found.some((t) => t.backend === "codex")).toBe(false);
  });

  it("a pin that is the platform package's own newest release gets no newest-release target", async () => {
    const claude = { ...pins[2]!, id: "claude-2.1.335", version: "2.1.335", platformPackage: `@a/claude-${platform}` };
    const found = await latestTargets([claude], lookup);
    expect(found).toEqual([]);
  });

  it("orders releases by number", () => {
    expect(newerThan("2.1.335", "2.1.332")).toBe(true);
    expect(newerThan("0.10.0", "0.9.9")).toBe(true);
    expect(newerThan("1.6.0", "1.6.0")).toBe(false);
  });
});
