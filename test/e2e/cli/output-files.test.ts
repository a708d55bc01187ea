// The files a run writes (--answer-file, --report, report --out), as a real
// process: an existing file keeps its mode, a symbolic link is written through
// (the link stays), and a run refused with exit 2 touches no file at all.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { Scratch, runStandIn, transcript } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());
const SUCCESS = { STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") };

let folders = 0;
function folder(): string {
  const dir = join(scratch.dir, `files-${++folders}`);
  mkdirSync(dir);
  return dir;
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("an existing file keeps its mode, and a link is written through", () => {
  it("--answer-file and --report: a mode-600 file stays 600, directly and through a symbolic link", async () => {
    const dir = folder();
    const answer = join(dir, "answer.txt");
    const report = join(dir, "report.md");
    const target = join(dir, "real-report.md");
    writeFileSync(answer, "old\n", { mode: 0o600 });
    writeFileSync(target, "old\n", { mode: 0o600 });
    chmodSync(answer, 0o600);
    chmodSync(target, 0o600);
    symlinkSync("real-report.md", report);
    const { result } = await runStandIn(
      scratch,
      ["--backend", "evosci", "--answer-file", answer, "--report", report, "x"],
      { knobs: SUCCESS },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(answer, "utf8")).not.toBe("old\n");
    expect(mode(answer)).toBe(0o600);
    expect(lstatSync(report).isSymbolicLink()).toBe(true);
    expect(readlinkSync(report)).toBe("real-report.md");
    expect(readFileSync(target, "utf8")).toContain("agentstream: evosci succeeded");
    expect(mode(target)).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(["answer.txt", "real-report.md", "report.md"]);
  });

  it("report --out through a link to a mode-640 file, and through a dangling link (its target created, the link kept)", async () => {
    const dir = folder();
    const stream = join(dir, "run.jsonl");
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "x"], { knobs: SUCCESS });
    writeFileSync(stream, result.stdout);
    const target = join(dir, "kept.md");
    writeFileSync(target, "old\n");
    chmodSync(target, 0o640);
    symlinkSync(target, join(dir, "link.md"));
    const out = await runCli(["report", "--out", join(dir, "link.md"), stream]);
    expect(out.code, out.stderr).toBe(0);
    expect(lstatSync(join(dir, "link.md")).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toContain("evosci succeeded");
    expect(mode(target)).toBe(0o640);

    symlinkSync("not-yet.md", join(dir, "dangling.md"));
    const dangling = await runCli(["report", "--out", join(dir, "dangling.md"), stream]);
    expect(dangling.code, dangling.stderr).toBe(0);
    expect(lstatSync(join(dir, "dangling.md")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "not-yet.md"), "utf8")).toContain("evosci succeeded");
  });
});

describe("a run refused with exit 2 touches no file", () => {
  it("--report x.unknown or a folder as --report leaves an existing answer file as it was", async () => {
    const dir = folder();
    const answer = join(dir, "answer.txt");
    mkdirSync(join(dir, "a-folder.md"));
    for (const report of [join(dir, "x.unknown"), join(dir, "a-folder.md")]) {
      writeFileSync(answer, "from an earlier run\n");
      const { result, standIn } = await runStandIn(
        scratch,
        ["--backend", "evosci", "--answer-file", answer, "--report", report, "x"],
        { knobs: SUCCESS },
      );
      expect(result.code, report).toBe(2);
      expect(standIn, "the backend started").toBeUndefined();
      expect(readFileSync(answer, "utf8"), report).toBe("from an earlier run\n");
      expect(readdirSync(dir).sort()).toEqual(["a-folder.md", "answer.txt"]);
    }
  });

  it("a summary file that cannot be opened refuses the run: the answer file stays as it was", async () => {
    const dir = folder();
    const answer = join(dir, "answer.txt");
    writeFileSync(answer, "kept\n");
    const { result } = await runStandIn(
      scratch,
      ["--backend", "evosci", "--answer-file", answer, "--report", join(dir, "r.md"), "--summary", "x"],
      { knobs: SUCCESS, env: { GITHUB_STEP_SUMMARY: join(dir, "missing", "s.md") } },
    );
    expect(result.code).toBe(2);
    expect(readFileSync(answer, "utf8")).toBe("kept\n");
    expect(readdirSync(dir)).toEqual(["answer.txt"]);
  });
});

describe("an OTLP endpoint with port 0 is a usage error", () => {
  it("from --otlp, export otlp --endpoint and OTEL_EXPORTER_OTLP_ENDPOINT: exit 2, nothing run or written", async () => {
    const dir = folder();
    const answer = join(dir, "answer.txt");
    writeFileSync(answer, "kept\n");
    for (const url of ["http://127.0.0.1:0/", "http://[::1]:0"]) {
      const { result, standIn } = await runStandIn(
        scratch,
        ["--backend", "evosci", "--answer-file", answer, `--otlp=${url}`, "x"],
        { knobs: SUCCESS },
      );
      expect(result.code, url).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("port 0");
      expect(standIn).toBeUndefined();
      const exported = await runCli(["export", "otlp", "--endpoint", url, answer]);
      expect(exported.code, url).toBe(2);
      expect(exported.stderr).toContain("port 0");
    }
    const { result, standIn } = await runStandIn(
      scratch,
      ["--backend", "evosci", "--answer-file", answer, "x", "--otlp"],
      { knobs: SUCCESS, env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:0" } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "agentstream: OTLP endpoint http://127.0.0.1:0/v1/traces: port 0 names no collector",
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(standIn).toBeUndefined();
    expect(readFileSync(answer, "utf8")).toBe("kept\n");
  });
});
