// The layers of src/, as the source map of docs/development.md draws them: a file
// imports only from its own folder or from folders below it, and only
// src/backends/ names a backend.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BACKENDS } from "../../src/backends/registry.js";
import { RANK, sourceFiles } from "../helpers/layers.js";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** The layer a file belongs to: its first folder under src/, or a file at the top by its name. */
function layerOf(file: string): string {
  const parts = relative(SRC, file).split("/");
  return parts.length === 1 ? parts[0]!.replace(/\.ts$/, "") : parts[0]!;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((m) =>
    resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts")),
  );
}

describe("architecture", () => {
  const files = sourceFiles(SRC);

  it("every folder under src/ has a rank", () => {
    for (const file of files) expect(RANK[layerOf(file)], relative(SRC, file)).toBeTypeOf("number");
  });

  it("a layer imports only itself and the layers below it", () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (to !== from && !(RANK[to]! < RANK[from]!)) wrong.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("no import cycle anywhere in src/, type-only and dynamic imports included", () => {
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]));
    const done = new Set<string>();
    const path: string[] = [];
    const cycles: string[] = [];
    // Depth first: an import of a file still on the path closes a cycle.
    const visit = (file: string): void => {
      path.push(file);
      for (const target of graph.get(file)!) {
        const at = path.indexOf(target);
        if (at >= 0) cycles.push([...path.slice(at), target].map((f) => relative(SRC, f)).join(" -> "));
        else if (!done.has(target)) visit(target);
      }
      path.pop();
      done.add(file);
    };
    for (const file of files) if (!done.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it("src/ holds only index.ts and version.ts at its top", () => {
    const top = files.filter((f) => layerOf(f) === relative(SRC, f).replace(/\.ts$/, ""));
    expect(top.map((f) => relative(SRC, f)).sort()).toEqual(["index.ts", "version.ts"]);
  });

  it("src/core/ casts nothing through unknown (as unknown as)", () => {
    const casting = files.filter((f) => layerOf(f) === "core" && /\bas unknown as\b/.test(readFileSync(f, "utf8")));
    expect(casting.map((f) => relative(SRC, f))).toEqual([]);
  });

  it("only the hosts (src/lib/, src/cli/) emit a process warning: below them, the host says where a warning goes", () => {
    const warning = files.filter(
      (f) => !["lib", "cli"].includes(layerOf(f)) && /process\.emitWarning/.test(readFileSync(f, "utf8")),
    );
    expect(warning.map((f) => relative(SRC, f))).toEqual([]);
  });

  it("defined() is written once, in src/core/fields.ts: translators, report and export leave out undefined fields alike", () => {
    const writing = files.filter((f) => /function defined\b/.test(readFileSync(f, "utf8")));
    expect(writing.map((f) => relative(SRC, f))).toEqual(["core/fields.ts"]);
  });

  it("no generic file of src/backends/ imports from a backend's folder, the registry aside: a backend's parts point up to them", () => {
    const generic = files.filter((f) => relative(SRC, dirname(f)) === "backends" && !f.endsWith("/registry.ts"));
    const reaching = generic.flatMap((f) =>
      importsOf(f)
        .filter((to) => relative(SRC, to).startsWith("backends/") && relative(SRC, dirname(to)) !== "backends")
        .map((to) => `${relative(SRC, f)} -> ${relative(SRC, to)}`),
    );
    expect(reaching).toEqual([]);
  });

  it("only src/backends/ names a backend", () => {
    const names = BACKENDS.map((b) => b.name);
    const pattern = new RegExp(`["'\`](${names.join("|")})["'\`]`);
    const naming = files.filter((f) => layerOf(f) !== "backends" && pattern.test(readFileSync(f, "utf8")));
    expect(naming.map((f) => relative(SRC, f))).toEqual([]);
  });
});

describe("one pipeline for every output", () => {
  const files = sourceFiles(SRC);
  const SESSION = join(SRC, "app/session.ts");
  // The outputs' sinks are opened by app/sinks.ts, which reads the request's outputs, for every command and side.
  const SINK_MODULES = [
    ...["stdout-sink", "answer-file", "report-sink", "otlp-sink"].map((name) => join(SRC, `output/${name}.ts`)),
    join(SRC, "app/sinks.ts"),
  ];

  it("only src/output/pipeline.ts builds a TranslationSession", () => {
    const building = files.filter((f) => /new TranslationSession\(/.test(readFileSync(f, "utf8")));
    expect(building.map((f) => relative(SRC, f))).toEqual(["output/pipeline.ts"]);
  });

  it("only src/app/session.ts builds an OutputPipeline: every run and normalization is composed there", () => {
    const building = files.filter((f) => /new OutputPipeline\(/.test(readFileSync(f, "utf8")));
    expect(building.map((f) => relative(SRC, f))).toEqual(["app/session.ts"]);
  });

  it("only src/app/session.ts starts a supervised run: its host and outputs are handed over in one place", () => {
    const starting = files.filter((f) =>
      /\bsuperviseRun\(/.test(readFileSync(f, "utf8").replace(/export function superviseRun\(/, "")),
    );
    expect(starting.map((f) => relative(SRC, f))).toEqual(["app/session.ts"]);
  });

  it("only src/app/sinks.ts opens the sinks a request's outputs ask for: one place for run and normalize, the CLI and the library", () => {
    const opening = files
      .filter((f) => !f.startsWith(join(SRC, "output/")))
      .filter((f) =>
        /\b(?:AnswerFile|ReportFile|AtifFile|JobSummary)\.open\(|\bopenOtlpSink\(/.test(readFileSync(f, "utf8")),
      );
    expect(opening.map((f) => relative(SRC, f))).toEqual(["app/sinks.ts"]);
  });

  it("a file that opens a sink hands it to the session (the one place that redacts and fans out)", () => {
    const wrong = files
      .filter((f) => !f.startsWith(join(SRC, "output/")) && !SINK_MODULES.includes(f))
      .filter((f) => importsOf(f).some((target) => SINK_MODULES.includes(target)))
      .filter((f) => f !== SESSION && !importsOf(f).includes(SESSION));
    expect(wrong.map((f) => relative(SRC, f))).toEqual([]);
  });

  it("src/export/ holds no redactor: the events it is given were redacted by the pipeline", () => {
    const REDACTION = [join(SRC, "core/redactor.ts"), join(SRC, "run/redact.ts")];
    const wrong = files
      .filter((f) => f.startsWith(join(SRC, "export/")))
      .filter(
        (f) =>
          /\bRedactor\b|\bredact/i.test(readFileSync(f, "utf8")) || importsOf(f).some((t) => REDACTION.includes(t)),
      );
    expect(wrong.map((f) => relative(SRC, f))).toEqual([]);
  });

  it("no sink module calls another sink, nor redacts: events reach sinks only through OutputPipeline.event", () => {
    const wrong = SINK_MODULES.filter((f) => /\.(?:value|jsonLine)\(|\bsinks?\.event\(/.test(readFileSync(f, "utf8")));
    expect(wrong.map((f) => relative(SRC, f))).toEqual([]);
  });
});

describe("the backend registry is the one list", () => {
  const names = BACKENDS.map((b) => b.name);

  it("the schema's backend enum lists exactly the registry's names", () => {
    const schema = JSON.parse(
      readFileSync(fileURLToPath(new URL("../../schemas/canonical-v1.schema.json", import.meta.url)), "utf8"),
    ) as {
      properties: { backend: { enum: string[] } };
    };
    expect(schema.properties.backend.enum).toEqual(names);
  });

  it("the README's backend table has one row per backend, in the registry's order", () => {
    const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
    const table = readme.slice(readme.indexOf("| backend | native protocol | agentstream name |"));
    const lines = table.split("\n").slice(2);
    const rows = lines.slice(
      0,
      lines.findIndex((line) => !line.startsWith("|")),
    );
    const named = rows.map((row) => /`([a-z0-9-]+)` \|$/.exec(row)?.[1]);
    expect(named).toEqual(names);
  });

  it("run --backend and normalize --from offer exactly the registry's names", async () => {
    const { buildProgram } = await import("../../src/cli/main.js");
    const program = buildProgram();
    const choices = (command: string, option: string) =>
      program.commands.find((c) => c.name() === command)!.options.find((o) => o.long === option)!.argChoices;
    expect(choices("run", "--backend")).toEqual(names);
    expect(choices("normalize", "--from")).toEqual(["auto", ...names]);
  });

  it("each name, executable variable and display name is unique", () => {
    for (const key of ["name", "binEnvVar", "displayName"] as const)
      expect(new Set(BACKENDS.map((b) => b[key])).size).toBe(BACKENDS.length);
  });
});

describe("the tests read as the contract", () => {
  const TEST = fileURLToPath(new URL("../", import.meta.url));
  // Folders that are programs or suites of their own, each with its own support: the live suite
  // (test/live/support, its live-only code), the bench and the collector's build; and the fixtures.
  // The fuzz generators and what the live suite shares with the offline tests are helpers too
  // (test/helpers/fuzz/, test/helpers/live/); test/layout.mjs states where each test file lives.
  const OWN_FOLDERS = ["fixtures", "live", "bench", "otel", "helpers"];
  const CONFIG = ["vitest.config.ts", "layout.mjs"];

  function testTree(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return dir === TEST && OWN_FOLDERS.includes(entry.name) ? [] : testTree(path);
      return /\.(?:ts|mjs|js)$/.test(entry.name) ? [path] : [];
    });
  }

  it("the default suite's helpers live in one folder, test/helpers/: every other module is a test file", () => {
    const strays = testTree(TEST)
      .map((f) => relative(TEST, f))
      .filter((f) => !f.endsWith(".test.ts") && !CONFIG.includes(f));
    expect(strays).toEqual([]);
  });
});
