// The sharded compare examples (docs/compare.md): examples/ci/compare-sharded.yml (a GitHub Actions matrix of
// shards, an artifact each, one merge job writing the job summary), examples/ci/compare-k8s-job.yaml (a
// Kubernetes Indexed Job, `--shard auto`) and the plan they run, examples/compare/plan.yaml, read as data:
// each is valid YAML whose parts fit together (N shards everywhere, the folder one step writes is the one the
// next reads). actionlint checks the workflow against GitHub's own rules (test/docs/actionlint.test.ts).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { shardCells } from "../../src/compare/manifest.js";
import { shardFromEnv } from "../../src/compare/options.js";
import { cellsOf } from "../../src/compare/plan.js";

// biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
const NOT_CANCELLED = "${{ !cancelled() }}";

const example = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../examples/${path}`, import.meta.url)), "utf8");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | boolean>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  strategy?: { "fail-fast"?: boolean; matrix: Record<string, unknown[]> };
  steps: Step[];
}

describe("examples/ci/compare-sharded.yml", () => {
  const workflow = parse(example("ci/compare-sharded.yml")) as { jobs: Record<string, Job> };
  const shard = workflow.jobs.shard!;
  const merge = workflow.jobs.merge!;
  const step = (job: Job, text: string) => job.steps.find((s) => s.run?.includes(text) || s.uses?.startsWith(text));

  it("runs shards 1 to N of the plan, N the number of matrix jobs, none cancelled by another's failure", () => {
    const shards = shard.strategy!.matrix.shard!;
    expect(shards).toEqual(Array.from({ length: shards.length }, (_, i) => i + 1));
    expect(shards.length).toBeGreaterThan(1);
    expect(shard.strategy!["fail-fast"]).toBe(false);
    const compare = step(shard, "agentstream compare")!;
    expect(compare.run).toBe('agentstream compare --plan compare.yaml --out results --shard "$SHARD"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions, not a template
    expect(compare.env!.SHARD).toBe("${{ matrix.shard }}/${{ strategy.job-total }}");
  });

  it("keeps each shard's --out folder as an artifact of its own, also when cells failed", () => {
    const upload = step(shard, "actions/upload-artifact@v4")!;
    const compare = step(shard, "agentstream compare")!;
    expect(shard.steps.indexOf(upload)).toBeGreaterThan(shard.steps.indexOf(compare));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(upload.with).toMatchObject({ name: "compare-shard-${{ matrix.shard }}", path: "results" });
    expect(upload.if).toBe(NOT_CANCELLED);
  });

  it("merges once every shard ended: downloads them all, merges, writes the report to the job summary", () => {
    expect(merge.needs).toBe("shard");
    expect(merge.if).toBe(NOT_CANCELLED);
    const download = step(merge, "actions/download-artifact@v4")!;
    expect(download.with).toEqual({ pattern: "compare-shard-*", path: "shards" });
    const merged = step(merge, "agentstream compare --merge")!;
    const report = step(merge, "agentstream report")!;
    expect(merged.run).toMatch(/^agentstream compare --merge shards\/\* /);
    expect(report.run).toContain('agentstream report shards/* --format md >> "$GITHUB_STEP_SUMMARY"');
    const order = [download, merged, report].map((s) => merge.steps.indexOf(s));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("installs agentstream from a tarball, never through npx", () => {
    for (const job of [shard, merge]) {
      expect(step(job, 'npm install --global --no-audit --no-fund "$AGENTSTREAM_PACKAGE"')).toBeDefined();
      expect(job.steps.filter((s) => /\bnpx\b/.test(s.run ?? ""))).toEqual([]);
    }
  });
});

describe("examples/ci/compare-k8s-job.yaml", () => {
  const documents = parseAllDocuments(example("ci/compare-k8s-job.yaml"));
  // biome-ignore lint/suspicious/noExplicitAny: a Kubernetes manifest as parsed
  const [claim, job] = documents.map((d) => d.toJS()) as any[];
  const pod = job.spec.template.spec;
  const container = pod.containers[0];
  const volume = (name: string) => pod.volumes.find((v: { name: string }) => v.name === name);
  const mount = (path: string) => container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === path);

  it("is valid YAML: two documents, without an error or a warning", () => {
    expect(documents).toHaveLength(2);
    for (const document of documents) expect([...document.errors, ...document.warnings]).toEqual([]);
  });

  it("is an Indexed Job of N completions, at most N pods at once, beside the claim its pods write to", () => {
    expect(claim).toMatchObject({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      spec: { accessModes: ["ReadWriteMany"] },
    });
    expect(job).toMatchObject({ apiVersion: "batch/v1", kind: "Job", spec: { completionMode: "Indexed" } });
    expect(job.spec.completions).toBeGreaterThan(1);
    expect(job.spec.parallelism).toBeGreaterThanOrEqual(1);
    expect(job.spec.parallelism).toBeLessThanOrEqual(job.spec.completions);
    expect(pod.restartPolicy).toBe("Never");
  });

  it("runs `agentstream compare --shard auto`, its --out per index, AGENTSTREAM_SHARD_TOTAL = completions", () => {
    expect([...container.command, ...container.args].join(" ")).toBe(
      "agentstream compare --plan /plan/compare.yaml --out /results/shard-$(JOB_COMPLETION_INDEX) --shard auto",
    );
    const env = Object.fromEntries(
      container.env.map((e: { name: string; value?: string; valueFrom?: object }) => [e.name, e.value ?? e.valueFrom]),
    );
    expect(env.AGENTSTREAM_SHARD_TOTAL).toBe(String(job.spec.completions));
    // The index is the pod's own, from its annotation: a value given here would make every pod the same shard.
    expect(env.JOB_COMPLETION_INDEX).toEqual({
      fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" },
    });
  });

  it("mounts what the command names: the plan from a config map, /results from the claim, the clone as its folder", () => {
    expect(volume(mount("/plan").name).configMap.name).toBe("agentstream-compare-plan");
    expect(volume(mount("/results").name).persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    const clone = pod.initContainers[0];
    // One image: git is in it.
    expect(clone.image).toBe(container.image);
    const target = clone.args.at(-1);
    expect(container.workingDir).toBe(target);
    const work = clone.volumeMounts[0];
    expect(target.startsWith(`${work.mountPath}/`)).toBe(true);
    expect(mount(work.mountPath).name).toBe(work.name);
  });
});

describe("examples/compare/plan.yaml", () => {
  const plan = parse(example("compare/plan.yaml")) as {
    repeat: number;
    tasks: { id: string; prompt: string; setup?: string; check?: string }[];
    agents: { backend: string; model?: string }[];
  };

  it("is tasks × agents × repeat: each task an id, a prompt and a check; each agent a backend", () => {
    expect(plan.repeat).toBeGreaterThanOrEqual(1);
    expect(plan.tasks.length).toBeGreaterThan(0);
    expect(new Set(plan.tasks.map((t) => t.id)).size).toBe(plan.tasks.length);
    for (const task of plan.tasks)
      expect(task).toMatchObject({ id: expect.any(String), prompt: expect.any(String), check: expect.any(String) });
    expect(plan.agents.map((a) => a.backend)).toEqual(["claude", "codex", "gemini"]);
  });

  it("the workflow installs every agent the plan names", () => {
    const install = example("ci/compare-sharded.yml");
    for (const pkg of ["@anthropic-ai/claude-code@", "@openai/codex@", "@google/gemini-cli@"])
      expect(install).toContain(pkg);
  });
});

describe("the plan, the workflow and the Job together, as compare reads them", () => {
  const cells = cellsOf({
    agents: [],
    plan: fileURLToPath(new URL("../../examples/compare/plan.yaml", import.meta.url)),
    shaping: {},
  });
  const workflow = parse(example("ci/compare-sharded.yml")) as { jobs: { shard: Job } };
  const shards = workflow.jobs.shard.strategy!.matrix.shard!.length;
  // biome-ignore lint/suspicious/noExplicitAny: a Kubernetes manifest as parsed
  const job = parseAllDocuments(example("ci/compare-k8s-job.yaml"))[1]!.toJS() as any;
  const container = job.spec.template.spec.containers[0];
  const total = container.env.find((e: { name: string }) => e.name === "AGENTSTREAM_SHARD_TOTAL").value;

  it("compare reads the plan: 2 tasks × 3 agents × 2 repeats, 12 cells", () => {
    expect(cells).toHaveLength(12);
    expect(new Set(cells.map((c) => c.id)).size).toBe(12);
  });

  it("each of the workflow's shards runs cells of its own, and together all of them", () => {
    const parts = Array.from({ length: shards }, (_, i) => shardCells(cells, { index: i + 1, total: shards }));
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    expect(
      parts
        .flat()
        .map((c) => c.id)
        .sort(),
    ).toEqual(cells.map((c) => c.id).sort());
  });

  it("each pod of the Job is a shard of its own: --shard auto reads index i of completions as shard i + 1", () => {
    const seen = Array.from({ length: job.spec.completions }, (_, i) =>
      shardFromEnv({ JOB_COMPLETION_INDEX: String(i), AGENTSTREAM_SHARD_TOTAL: total }),
    );
    expect(seen).toEqual(
      Array.from({ length: job.spec.completions }, (_, i) => ({ index: i + 1, total: job.spec.completions })),
    );
  });
});
