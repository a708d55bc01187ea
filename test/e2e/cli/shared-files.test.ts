// No output overwrites an input or another output (issue 53 item 8), as a real process: an output option
// naming an input file, or two outputs naming one file (the same path spelled otherwise, a hard or a
// symbolic link, a dangling link to the other's name, stdin or stdout redirected to it) is refused before
// anything is read or started: exit 2, both named, no backend started, every file as it was.
import { spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, runCli, type CliResult } from "../../helpers/cli.js";
import { expectNoneLeftRunning, Scratch, STAND_IN, transcript } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

const RECORDING = readFileSync(transcript("evosci-success.jsonl"), "utf8");
const SCHEMA = JSON.stringify({ type: "object" });
const CANONICAL = readFileSync(new URL("../../../examples/evosci/research.canonical.jsonl", import.meta.url), "utf8");

let folders = 0;
/** A fresh folder holding rec.jsonl (a recording), c.jsonl (a canonical stream), p.txt (a prompt) and schema.json. */
function folder(): string {
  const dir = join(scratch.dir, `shared-${++folders}`);
  mkdirSync(dir);
  const files = { "rec.jsonl": RECORDING, "c.jsonl": CANONICAL, "p.txt": "list the files\n", "schema.json": SCHEMA };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Every file of a folder with its content (a link to a folder, or a dangling one, as where it points). */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((name) => {
      const path = join(dir, name);
      return [
        name,
        existsSync(path) && statSync(path).isFile() ? readFileSync(path, "utf8") : `-> ${readlinkSync(path)}`,
      ];
    }),
  );
}

/** The CLI in DIR, its stdin and stdout files where asked (stdout appended to: `>> FILE`). */
function cliIn(dir: string, args: string[], io: { stdin?: string; stdout?: string; env?: NodeJS.ProcessEnv } = {}) {
  if (io.stdin === undefined && io.stdout === undefined) return runCli(args, { cwd: dir, env: io.env });
  return new Promise<CliResult>((resolve, reject) => {
    const fds = [
      io.stdin === undefined ? "ignore" : openSync(join(dir, io.stdin), "r"),
      io.stdout === undefined ? "pipe" : openSync(join(dir, io.stdout), "a"),
    ] as const;
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", ...io.env },
      stdio: [fds[0], fds[1], "pipe"],
    });
    for (const fd of fds) if (typeof fd === "number") closeSync(fd);
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

interface Case {
  name: string;
  args: string[];
  /** The two names the refusal gives, as stderr says them. */
  names: [string, string];
  /** Links made before the run: name -> target (hard: a hard link). */
  links?: Record<string, { to: string; hard?: boolean }>;
  stdin?: string;
  stdout?: string;
  env?: (dir: string) => NodeJS.ProcessEnv;
}

const RUN = ["run", "--backend", "evosci", "--bin", STAND_IN];

const CASES: Case[] = [
  {
    name: "normalize FILE --atif FILE",
    args: ["normalize", "rec.jsonl", "--atif", "rec.jsonl"],
    names: ["--atif rec.jsonl", "the input rec.jsonl"],
  },
  {
    name: "normalize through a symbolic link, --atif a hard link of the input",
    args: ["normalize", "link.jsonl", "--atif", "hard.jsonl"],
    names: ["--atif hard.jsonl", "the input link.jsonl"],
    links: { "link.jsonl": { to: "rec.jsonl" }, "hard.jsonl": { to: "rec.jsonl", hard: true } },
  },
  {
    name: "normalize - --atif FILE < FILE",
    args: ["normalize", "-", "--atif", "rec.jsonl"],
    names: ["--atif rec.jsonl", "stdin (the input)"],
    stdin: "rec.jsonl",
  },
  {
    name: "normalize FILE >> FILE (stdout appended to the input)",
    args: ["normalize", "rec.jsonl"],
    names: ["stdout", "the input rec.jsonl"],
    stdout: "rec.jsonl",
  },
  {
    name: "normalize --answer-file FILE > FILE",
    args: ["normalize", "rec.jsonl", "--answer-file", "out.txt"],
    names: ["--answer-file out.txt", "stdout"],
    stdout: "out.txt",
  },
  {
    name: "normalize --answer-file X --atif ./X (neither there yet)",
    args: ["normalize", "rec.jsonl", "--answer-file", "x.json", "--atif", "./x.json"],
    names: ["--answer-file x.json", "--atif ./x.json"],
  },
  {
    name: "normalize --answer-file through a dangling link to --atif's name",
    args: ["normalize", "rec.jsonl", "--answer-file", "dangling.txt", "--atif", "sub/later.json"],
    names: ["--answer-file dangling.txt", "--atif sub/later.json"],
    links: { "dangling.txt": { to: "later.json" }, sub: { to: "." } },
  },
  {
    name: "normalize --atif naming --output-schema",
    args: ["normalize", "rec.jsonl", "--output-schema", "schema.json", "--atif", "schema.json"],
    names: ["--atif schema.json", "--output-schema schema.json"],
  },
  {
    name: "normalize --answer-file naming --stderr",
    args: ["normalize", "rec.jsonl", "--stderr", "p.txt", "--answer-file", "p.txt"],
    names: ["--answer-file p.txt", "--stderr p.txt"],
  },
  {
    name: "normalize --atif naming --usage-file",
    args: ["normalize", "rec.jsonl", "--usage-file", "schema.json", "--atif", "schema.json"],
    names: ["--atif schema.json", "--usage-file schema.json"],
  },
  {
    name: "run --prompt-file P --answer-file P",
    args: [...RUN, "--prompt-file", "p.txt", "--answer-file", "p.txt"],
    names: ["--answer-file p.txt", "--prompt-file p.txt"],
  },
  {
    name: "run - --answer-file P < P",
    args: [...RUN, "--answer-file", "p.txt", "-"],
    names: ["--answer-file p.txt", "stdin (the prompt)"],
    stdin: "p.txt",
  },
  {
    name: "run --continue-from FILE --atif FILE",
    args: [...RUN, "--continue-from", "rec.jsonl", "--atif", "rec.jsonl", "go on"],
    names: ["--atif rec.jsonl", "--continue-from rec.jsonl"],
  },
  {
    name: "run --output-schema FILE --report FILE",
    args: [...RUN, "--output-schema", "schema.json", "--report", "schema.json", "x"],
    names: ["--report schema.json", "--output-schema schema.json"],
  },
  {
    name: "run --atif X --report X",
    args: [...RUN, "--atif", "x.json", "--report", "x.json", "x"],
    names: ["--report x.json", "--atif x.json"],
  },
  {
    name: "run --report R --summary, $GITHUB_STEP_SUMMARY a link to R",
    args: [...RUN, "--report", "r.md", "--summary", "x"],
    names: ["--report r.md", "--summary ($GITHUB_STEP_SUMMARY"],
    links: { "summary.md": { to: "r.md" } },
    env: (dir) => ({ GITHUB_STEP_SUMMARY: join(dir, "summary.md") }),
  },
  {
    name: "report --out LINK FILE",
    args: ["report", "--out", "c.md", "c.jsonl"],
    names: ["--out c.md", "the input c.jsonl"],
    links: { "c.md": { to: "c.jsonl" } },
  },
  {
    name: "report FILE >> FILE",
    args: ["report", "c.jsonl"],
    names: ["stdout", "the input c.jsonl"],
    stdout: "c.jsonl",
  },
  {
    name: "export atif FILE >> FILE",
    args: ["export", "atif", "c.jsonl"],
    names: ["stdout", "the input c.jsonl"],
    stdout: "c.jsonl",
  },
];

describe("no output overwrites an input or another output", () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    "%s: exit 2, both named, nothing started or touched",
    async (_, c) => {
      const dir = folder();
      for (const [name, { to, hard }] of Object.entries(c.links ?? {}))
        if (hard) linkSync(join(dir, to), join(dir, name));
        else symlinkSync(to, join(dir, name));
      // The file stdout is redirected to is there before the run, as a shell's `>>` makes it.
      if (c.stdout !== undefined && !existsSync(join(dir, c.stdout))) writeFileSync(join(dir, c.stdout), "");
      const before = readdirSync(dir).sort();
      const contents = snapshot(dir);
      const record = scratch.recordPath();
      const result = await cliIn(dir, c.args, {
        ...(c.stdin !== undefined ? { stdin: c.stdin } : {}),
        ...(c.stdout !== undefined ? { stdout: c.stdout } : {}),
        env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl"), ...c.env?.(dir) },
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe("");
      const said = result.stderr.split("\n")[0]!;
      expect(said).toMatch(/^agentstream: .* are one file: /);
      for (const name of c.names) expect(said).toContain(name);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(expectNoneLeftRunning(record), "the backend started").toBeUndefined();
      expect(readdirSync(dir).sort()).toEqual(before);
      expect(snapshot(dir)).toEqual(contents);
    },
  );

  it("export atif --out DIR: a run's document named as a stream it reads is refused (exit 2), the stream kept", async () => {
    const dir = folder();
    const runId = (JSON.parse(CANONICAL.split("\n")[0]!) as { run_id: string }).run_id;
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "docs", `${runId}.json`), CANONICAL);
    const result = await cliIn(dir, ["export", "atif", "--out", "docs", `docs/${runId}.json`]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `agentstream: --out docs/${runId}.json and the input docs/${runId}.json are one file: the output would overwrite the input`,
    );
    expect(readdirSync(join(dir, "docs"))).toEqual([`${runId}.json`]);
    expect(readFileSync(join(dir, "docs", `${runId}.json`), "utf8")).toBe(CANONICAL);
  });

  it("the same options naming files of their own still run (normalize and run)", async () => {
    const dir = folder();
    const normalized = await cliIn(dir, ["normalize", "rec.jsonl", "--answer-file", "a.txt", "--atif", "a.json"], {
      stdout: "out.jsonl",
    });
    expect(normalized.code, normalized.stderr).toBe(0);
    const record = scratch.recordPath();
    const ran = await cliIn(dir, [...RUN, "--prompt-file", "p.txt", "--answer-file", "b.txt", "--report", "b.md"], {
      env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
    });
    expect(ran.code, ran.stderr).toBe(0);
    expectNoneLeftRunning(record);
    expect(readdirSync(dir).sort()).toEqual(
      ["a.json", "a.txt", "b.md", "b.txt", "c.jsonl", "out.jsonl", "p.txt", "rec.jsonl", "schema.json"].sort(),
    );
    expect(readFileSync(join(dir, "rec.jsonl"), "utf8")).toBe(RECORDING);
  });

  it("stdout appended to a file read whole before the run (run --continue-from LOG >> LOG) is no overwrite: the log grows", async () => {
    const dir = folder();
    const record = scratch.recordPath();
    const ran = await cliIn(dir, [...RUN, "--continue-from", "c.jsonl", "next"], {
      stdout: "c.jsonl",
      env: { STANDIN_RECORD: record, STANDIN_TRANSCRIPT: transcript("evosci-success.jsonl") },
    });
    expect(ran.code, ran.stderr).toBe(0);
    expectNoneLeftRunning(record);
    const log = readFileSync(join(dir, "c.jsonl"), "utf8");
    expect(log.startsWith(CANONICAL)).toBe(true);
    expect(log.slice(CANONICAL.length)).toMatch(/^\{"v":1,.*"type":"run.started"/);
  });
});
