import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, parseJsonl } from "../helpers/cli.js";

// examples/ci/: the shell script and the GitHub Actions workflow, run against a
// stand-in EvoScientist (AGENTSTREAM_EVOSCI_BIN) and this checkout's agentstream
// installed on PATH, so no agent or registry is called. An `npx` on PATH fails
// the run: agentstream is not on the registry, so the examples never fetch it.

const example = (path: string): string => fileURLToPath(new URL(`../../examples/${path}`, import.meta.url));
const SCRIPT = example("ci/run-agent.sh");
const WORKFLOW = example("ci/github-actions.yml");
const SUCCEEDS = example("evosci/research.native.jsonl");
const OVERLOADED = example("evosci/overloaded.native.jsonl");
const BAD_REQUEST = fileURLToPath(new URL("../fixtures/backends/transcripts/evosci-error-400.jsonl", import.meta.url));
const ANSWER = "Baselines: CIFAR-100 ~76%, Tiny-ImageNet ~55% top-1.";
// Each test starts agentstream once or more; no timing is asserted.
const SLOW = { timeout: 60_000 };

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Job {
  dir: string;
  /** How many times the stand-in backend was started. */
  calls: () => number;
  env: NodeJS.ProcessEnv;
}

/**
 * A job folder with an EvoScientist stand-in whose first `failures` runs replay
 * `failing`, and later ones a successful run; this checkout's agentstream as
 * `agentstream` on PATH; and an `npx` that refuses every call.
 */
function job(failing: string, failures: number): Job {
  const dir = mkdtempSync(join(tmpdir(), "agentstream-ci-"));
  dirs.push(dir);
  const backend = join(dir, "evosci");
  writeFileSync(
    backend,
    `#!/bin/sh
calls=$(( $(cat "${dir}/calls" 2>/dev/null || echo 0) + 1 ))
echo "$calls" > "${dir}/calls"
if [ "$calls" -le ${failures} ]; then exec cat "${failing}"; fi
exec cat "${SUCCEEDS}"
`,
    { mode: 0o755 },
  );
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "agentstream"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  writeFileSync(join(bin, "npx"), `#!/bin/sh\necho "npx must not be called: $*" >&2\nexit 127\n`, { mode: 0o755 });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}${delimiter}${process.env.PATH}`,
    AGENTSTREAM_EVOSCI_BIN: backend,
    NO_COLOR: "1",
  };
  delete env.AGENTSTREAM;
  return { dir, env, calls: () => Number(readFileSync(join(dir, "calls"), "utf8")) };
}

function bash(args: string[], { dir, env }: Job, extraEnv: NodeJS.ProcessEnv = {}) {
  return spawnSync("bash", args, { cwd: dir, env: { ...env, ...extraEnv }, encoding: "utf8", timeout: 60_000 });
}

function lastEvent(file: string): Record<string, unknown> | undefined {
  return parseJsonl(readFileSync(file, "utf8")).at(-1);
}

describe("examples/ci/run-agent.sh", SLOW, () => {
  const runAgent = (j: Job, attempts = 3) =>
    bash([SCRIPT, "Summarize the results", "--quiet"], j, { AGENT_ATTEMPTS: String(attempts), AGENT_RETRY_DELAY: "0" });

  it("prints the final answer, keeps the log and exits 0 when the run succeeds", () => {
    const j = job(OVERLOADED, 0);
    const result = runAgent(j);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${ANSWER}\n`);
    expect(j.calls()).toBe(1);
    expect(lastEvent(join(j.dir, "agentstream.jsonl"))).toMatchObject({ type: "run.finished", status: "succeeded" });
  });

  it("writes a Markdown report of the run beside the log, and no job summary outside GitHub Actions", () => {
    const j = job(OVERLOADED, 0);
    const result = bash([SCRIPT, "Summarize the results", "--quiet"], j, { GITHUB_STEP_SUMMARY: "" });
    expect(result.status).toBe(0);
    const report = readFileSync(join(j.dir, "agentstream-report.md"), "utf8");
    expect(report).toMatch(/^## ✅ agentstream: evosci succeeded\n/);
    expect(report).toContain(ANSWER);
    expect(result.stderr).not.toContain("GITHUB_STEP_SUMMARY");
  });

  it("in GitHub Actions, appends each attempt's report to the job summary; AGENT_REPORT picks the file and its format", () => {
    const j = job(OVERLOADED, 1);
    const summary = join(j.dir, "summary.md");
    const result = bash([SCRIPT, "Summarize the results", "--quiet"], j, {
      AGENT_RETRY_DELAY: "0",
      GITHUB_STEP_SUMMARY: summary,
      AGENT_REPORT: "run.json",
    });
    expect(result.status, result.stderr).toBe(0);
    const text = readFileSync(summary, "utf8");
    expect(text.indexOf("## ❌ agentstream: evosci failed")).toBeGreaterThanOrEqual(0);
    expect(text.indexOf("## ✅ agentstream: evosci succeeded")).toBeGreaterThan(
      text.indexOf("## ❌ agentstream: evosci failed"),
    );
    expect(JSON.parse(readFileSync(join(j.dir, "run.json"), "utf8"))).toMatchObject({
      runs: [{ status: "succeeded" }],
    });
    expect(JSON.parse(readFileSync(join(j.dir, "run.attempt-1.json"), "utf8"))).toMatchObject({
      runs: [{ status: "failed", exit_code: 75 }],
    });
  });

  it("retries after exit 75 and succeeds on the second attempt, keeping the first attempt's log", () => {
    const j = job(OVERLOADED, 1);
    const result = runAgent(j);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${ANSWER}\n`);
    expect(result.stderr).toContain("attempt 1 of 3 failed with a retryable error (exit 75); retrying in 0s");
    expect(j.calls()).toBe(2);
    expect(lastEvent(join(j.dir, "agentstream.attempt-1.jsonl"))).toMatchObject({
      exit_code: 75,
      error: { code: "overloaded" },
    });
    expect(lastEvent(join(j.dir, "agentstream.jsonl"))).toMatchObject({ status: "succeeded" });
  });

  it("gives up after AGENT_ATTEMPTS retryable failures and exits 75", () => {
    const j = job(OVERLOADED, 99);
    const result = runAgent(j, 2);
    expect(result.status).toBe(75);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("run-agent: failed (overloaded): Error code: 529");
    expect(j.calls()).toBe(2);
  });

  it("does not retry a failure that is not retryable, and exits with its code", () => {
    const j = job(BAD_REQUEST, 99);
    const result = runAgent(j);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("run-agent: failed (provider)");
    expect(j.calls()).toBe(1);
  });

  it("prefers the project's installed agentstream (node_modules/.bin) to the one on PATH", () => {
    const j = job(OVERLOADED, 0);
    mkdirSync(join(j.dir, "node_modules", ".bin"), { recursive: true });
    writeFileSync(
      join(j.dir, "node_modules", ".bin", "agentstream"),
      `#!/bin/sh\necho local >> "${j.dir}/local-calls"\nexec agentstream "$@"\n`,
      { mode: 0o755 },
    );
    const result = runAgent(j);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(j.dir, "local-calls"), "utf8")).toBe("local\n");
  });

  it("says how to install agentstream when there is none, and exits 127 without calling npx", () => {
    const j = job(OVERLOADED, 0);
    const systemPath = (process.env.PATH ?? "")
      .split(delimiter)
      .filter((dir) => !existsSync(join(dir, "agentstream")))
      .join(delimiter);
    const result = bash([SCRIPT, "Summarize the results"], { ...j, env: { ...j.env, PATH: systemPath } });
    expect(result.status).toBe(127);
    expect(result.stderr).toContain(
      "run-agent: agentstream is not installed here: npm install /path/to/agentstream-VERSION.tgz",
    );
    expect(existsSync(join(j.dir, "calls"))).toBe(false);
  });

  it("needs a prompt", () => {
    const result = bash([SCRIPT], job(OVERLOADED, 0));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("usage:");
  });
});

/** The workflow as data, through PyYAML when this machine's Python has it. */
function parseWorkflow(): Workflow | undefined {
  const script = "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)";
  const result = spawnSync("python3", ["-c", script, WORKFLOW], { encoding: "utf8" });
  return result.status === 0 ? (JSON.parse(result.stdout) as Workflow) : undefined;
}

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string | number>;
  with?: Record<string, string | number>;
}
interface Workflow {
  name: string;
  // YAML 1.1 (PyYAML) reads the key `on` as true.
  true?: Record<string, unknown>;
  on?: Record<string, unknown>;
  jobs: Record<string, { "runs-on": string; steps: Step[] }>;
}

const workflow = parseWorkflow();

describe.skipIf(workflow === undefined)("examples/ci/github-actions.yml", SLOW, () => {
  const steps = Object.values(workflow?.jobs ?? {}).flatMap((j) => j.steps);
  const agentStep = steps.find((s) => s.run?.includes("agentstream run"));

  /** Run the agent step's script as GitHub does for `shell: bash`. */
  function runAgentStep(j: Job) {
    const summary = join(j.dir, "summary.md");
    const result = bash(["--noprofile", "--norc", "-eo", "pipefail", "-c", agentStep!.run!], j, {
      PROMPT: "Summarize the results",
      ATTEMPTS: "3",
      RETRY_DELAY: "0",
      GITHUB_STEP_SUMMARY: summary,
    });
    return { ...result, summary: existsSync(summary) ? readFileSync(summary, "utf8") : "" };
  }

  it("is started by hand with a prompt, and runs one job", () => {
    expect(workflow!.name).toBeTruthy();
    expect(workflow!.on ?? workflow!.true).toMatchObject({
      workflow_dispatch: { inputs: { prompt: { required: true } } },
    });
    expect(Object.values(workflow!.jobs)).toHaveLength(1);
  });

  it("installs agentstream from a tarball before the agent step, never through npx", () => {
    const install = steps.find((s) => s.name === "Install agentstream");
    expect(install).toMatchObject({ run: 'npm install --global --no-audit --no-fund "$AGENTSTREAM_PACKAGE"' });
    expect(String(install!.env?.AGENTSTREAM_PACKAGE)).toMatch(/\.tgz$/);
    expect(steps.indexOf(install!)).toBeLessThan(steps.indexOf(agentStep!));
    expect(steps.filter((s) => /\bnpx\b/.test(s.run ?? ""))).toEqual([]);
  });

  it("passes the prompt through the environment, and uploads the logs even when the run failed", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(agentStep).toMatchObject({ shell: "bash", env: { PROMPT: "${{ inputs.prompt }}" } });
    expect(agentStep!.run).not.toContain("${{");
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload).toMatchObject({ if: "always()" });
    expect(String(upload!.with!.path).split("\n").filter(Boolean)).toEqual([
      "agentstream*.jsonl",
      "agentstream-report*.md",
    ]);
    expect(steps.indexOf(upload!)).toBeGreaterThan(steps.indexOf(agentStep!));
  });

  it("retries after exit 75, then succeeds; the job summary holds each attempt's report (--summary), the answer in the last", () => {
    const j = job(OVERLOADED, 1);
    const result = runAgentStep(j);
    expect(result.status).toBe(0);
    expect(j.calls()).toBe(2);
    expect(result.stdout).toContain("::warning::attempt 1 failed with a retryable error (exit 75)");
    const [failed, succeeded] = result.summary.split(/^(?=## )/m);
    expect(failed).toMatch(/^## ❌ agentstream: evosci failed\n/);
    expect(failed).toContain("| **status** | failed (exit 75) |");
    expect(succeeded).toMatch(/^## ✅ agentstream: evosci succeeded\n/);
    expect(succeeded).toContain(`\n${ANSWER}\n`);
    expect(existsSync(join(j.dir, "agentstream.attempt-1.jsonl"))).toBe(true);
    expect(readFileSync(join(j.dir, "agentstream-report.md"), "utf8")).toBe(succeeded!.replace(/\n$/, ""));
  });

  it("fails the step with agentstream's exit code when the run did not succeed, its error in the job summary", () => {
    const j = job(BAD_REQUEST, 99);
    const result = runAgentStep(j);
    expect(result.status).toBe(1);
    expect(j.calls()).toBe(1);
    expect(result.summary).toMatch(/^## ❌ agentstream: evosci failed\n/);
    expect(result.summary).toContain("| **error** | provider: Error code: 400");
  });
});
