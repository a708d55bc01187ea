import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJsonl } from "../helpers/cli.js";

// The npm package as a user gets it: `npm pack`, installed into an empty
// project, used through npx and as a library (with its types). One install
// serves every test here.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const repo = (path: string): string => join(ROOT, path);
const version = (JSON.parse(readFileSync(repo("package.json"), "utf8")) as { version: string }).version;

// Each test starts real processes (tsc takes seconds); no timing is asserted.
const SLOW = { timeout: 60_000 };

// Modules compiled into dist/ that only the build uses.
const BUILD_ONLY = ["schema/build-validators", "app/contract-lists"];

/** What `npm pack --json` says of the tarball. */
interface Packed {
  filename: string;
  files: { path: string }[];
}
let packed: Packed;
let scratch: string;
let project: string;

/** The environment of a user's shell: none of the npm_* settings of the `npm test` running us. */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  // npx must use the installed package, never fetch one of the same name.
  return { ...env, npm_config_yes: "false", NO_COLOR: "1", ...extra };
}

function run(command: string, args: string[], options: SpawnSyncOptions = {}) {
  const result = spawnSync(command, args, {
    cwd: project,
    env: userEnv(),
    encoding: "utf8",
    timeout: 60_000,
    ...options,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const npx = (args: string[], options: SpawnSyncOptions = {}) => run("npx", ["agentstream", ...args], options);

function ok(result: { code: number | null; stdout: string; stderr: string }): string {
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "agentstream-package-"));
  project = join(scratch, "project");
  mkdirSync(project);
  // --ignore-scripts: `npm test` has just built dist/, and a rebuild here would
  // rewrite it under the test files running beside this one.
  const pack = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], { cwd: ROOT });
  packed = (JSON.parse(ok(pack)) as Packed[])[0]!;
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  ok(run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(scratch, packed.filename)]));
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

describe("the packed tarball", SLOW, () => {
  it("holds the built code of every source module, the bin, the schema, the README with its docs and examples, and nothing else", () => {
    const modules = filesBelow(repo("src"))
      .map((file) => file.replace(/\.ts$/, ""))
      .filter((module) => !BUILD_ONLY.includes(module));
    const expected = [
      "README.md",
      "LICENSE",
      "package.json",
      "bin/agentstream.js",
      "schemas/canonical-v1.schema.json",
      // What `agentstream report --format json` writes.
      "schemas/report-v1.schema.json",
      // A row of `agentstream compare`.
      "schemas/compare-row-v1.schema.json",
      "dist/schema/canonical-validator.generated.js",
      ...modules.flatMap((module) => [`dist/${module}.js`, `dist/${module}.d.ts`]),
      // The pages the README links, and the examples they name: relative links resolve in the package too.
      ...filesBelow(repo("docs")).map((file) => `docs/${file}`),
      ...filesBelow(repo("examples")).map((file) => `examples/${file}`),
    ];
    expect(packed.files.map((file) => file.path).sort()).toEqual(expected.sort());
  });
});

describe("the installed package", SLOW, () => {
  it("carries the MIT licence it names, and runs no script of its own on install (the tarball is built already)", () => {
    const installed = join(project, "node_modules", "agentstream");
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
      license: string;
      scripts?: Record<string, string>;
    };
    expect(manifest.license).toBe("MIT");
    expect(readFileSync(join(installed, "LICENSE"), "utf8")).toMatch(
      /^MIT License\n\nCopyright \(c\) 2026 the agentstream authors\n/,
    );
    for (const script of ["preinstall", "install", "postinstall", "prepare"])
      expect(manifest.scripts?.[script], script).toBeUndefined();
  });
});

describe("npx agentstream, installed from the tarball", SLOW, () => {
  it("--version prints the package version", () => {
    expect(ok(npx(["--version"]))).toBe(`${version}\n`);
  });

  it("--help names every command", () => {
    const help = ok(npx(["--help"]));
    for (const command of ["run", "normalize", "verify", "report", "schema"])
      expect(help).toMatch(new RegExp(`^  ${command} `, "m"));
  });

  it("schema prints the shipped schema", () => {
    expect(JSON.parse(ok(npx(["schema"])))).toEqual(
      JSON.parse(readFileSync(repo("schemas/canonical-v1.schema.json"), "utf8")),
    );
  });

  it("normalize turns an example into its canonical events; verify accepts them and rejects a cut stream", () => {
    const native = repo("examples/evosci/research.native.jsonl");
    const stdout = ok(npx(["normalize", "--backend-exit", "0", native]));
    const expected = parseJsonl(readFileSync(repo("examples/evosci/research.canonical.jsonl"), "utf8"));
    const events = parseJsonl(stdout);
    expect(events.map((e) => e.type)).toEqual(expected.map((e) => e.type));
    expect(events.at(-1)).toMatchObject({
      status: "succeeded",
      exit_code: 0,
      result: expected.at(-1)!.result as object,
    });

    const canonical = join(scratch, "research.canonical.jsonl");
    writeFileSync(canonical, stdout);
    expect(ok(npx(["verify", canonical]))).toBe("");
    writeFileSync(canonical, stdout.split("\n").slice(1).join("\n"));
    const broken = npx(["verify", canonical]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^line 1: /m);
  });

  it("run drives a backend live and ends with its outcome (the bundled replay of a recorded run)", () => {
    const replay = repo("examples/replay-backend.mjs");
    const result = npx(["run", "--backend", "evosci", "--bin", replay, "Summarize data/results.csv into notes.md"], {
      env: userEnv({ REPLAY_SPEED: "200" }),
    });
    const events = parseJsonl(ok(result));
    expect(events[0]).toMatchObject({ type: "run.started", mode: "run" });
    expect(events.at(-1)).toMatchObject({ type: "run.finished", status: "succeeded", exit_code: 0 });
    expect(result.stderr).toContain("[agentstream] ");
  });
});

describe("the library, installed from the tarball", SLOW, () => {
  it("imports from 'agentstream' and 'agentstream/schema' with its dependencies, and keeps its internals private", () => {
    writeFileSync(
      join(project, "consumer.mjs"),
      `import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import { normalizeStream, readCanonicalStream, verifyStream, exitCodeFor, VERSION } from "agentstream";
const [native, canonical] = process.argv.slice(2);
const schema = createRequire(import.meta.url)("agentstream/schema");
const events = [];
for await (const event of normalizeStream(createReadStream(native))) events.push(event);
const problems = [];
await verifyStream(events.map((event) => JSON.stringify(event) + "\\n"), { onProblem: (problem) => problems.push(problem) });
const readBack = [];
for await (const event of readCanonicalStream(createReadStream(canonical))) readBack.push(event.type);
const internals = await import("agentstream/dist/cli/main.js").then(() => "importable", (err) => err.code);
console.log(JSON.stringify({ VERSION, schema: schema.title, last: events.at(-1), problems, readBack, exitCodeFor: typeof exitCodeFor, internals }));
`,
    );
    const example = (suffix: string) => repo(`examples/evosci/overloaded.${suffix}.jsonl`);
    const out = JSON.parse(ok(run(process.execPath, ["consumer.mjs", example("native"), example("canonical")])));
    expect(out).toMatchObject({
      VERSION: version,
      schema: "agentstream canonical event, v1",
      last: { type: "run.finished", exit_code: 75, error: { code: "overloaded", retryable: true } },
      problems: [],
      readBack: parseJsonl(readFileSync(example("canonical"), "utf8")).map((e) => e.type),
      exitCodeFor: "function",
      internals: "ERR_PACKAGE_PATH_NOT_EXPORTED",
    });
  });

  it("type-checks examples/library.ts against the installed declarations (NodeNext, strict), which then runs", () => {
    copyFileSync(repo("examples/library.ts"), join(project, "library.ts"));
    // If the declarations resolved to `any`, this expected error would be missing and tsc would fail.
    writeFileSync(
      join(project, "misuse.ts"),
      `import { normalizeStream } from "agentstream";
// @ts-expect-error: not a backend
normalizeStream([], { from: "no-such-backend" });
`,
    );
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        // Check the package's .d.ts files too (TypeScript's own lib files are not ours to check).
        skipLibCheck: false,
        skipDefaultLibCheck: true,
        noEmitOnError: true,
        outDir: "out",
        types: ["node"],
        typeRoots: [repo("node_modules/@types")],
      },
      files: ["library.ts", "misuse.ts"],
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = run(process.execPath, [repo("node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"]);
    expect(tsc.code, tsc.stdout).toBe(0);

    const succeeded = run(process.execPath, ["out/library.js", repo("examples/evosci/research.native.jsonl")]);
    expect(succeeded.code).toBe(0);
    expect(succeeded.stdout).toContain("tool tavily_search: failed");
    expect(succeeded.stdout).toContain("succeeded: 4 tool calls, 1 failed");
    expect(succeeded.stdout).toContain("answer: Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1.");

    const overloaded = run(process.execPath, ["out/library.js", repo("examples/evosci/overloaded.native.jsonl")]);
    expect(overloaded.code).toBe(75);
    expect(overloaded.stdout).toContain("failed with overloaded; retrying may help: true");
  });
});
