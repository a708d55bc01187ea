// A value the user names that becomes an argument of the backend's own (a rule's
// tool name, a model, a provider, a session id, from the command line, from
// run() or from a --continue-from file) is never one the backend could read as
// a flag, nor one no program can be given: run refuses it with exit 2 and
// starts nothing, on every backend.
import { existsSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { BACKENDS } from "../../../src/backends/registry.js";
import { reaches } from "../../../src/backends/support.js";
import { run, UsageError } from "../../../src/index.js";
import type { RunOptions } from "../../../src/lib/run.js";
import { runCli } from "../../helpers/cli.js";
import { Scratch, STAND_IN } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

const NAMES = BACKENDS.map((backend) => backend.name);
const AS_FLAG = 'starts with "-", so the backend would read it as a flag';

/** `run --bin STAND_IN ARGS... hi`: refused with exit 2, nothing on stdout, nothing started; its stderr. */
async function refusedRun(args: string[]): Promise<string> {
  const record = scratch.recordPath();
  const result = await runCli(["run", "--bin", STAND_IN, ...args, "hi"], { env: { STANDIN_RECORD: record } });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
  expect(existsSync(record), "the backend was started").toBe(false);
  expect(result.stderr).not.toContain("internal");
  return result.stderr;
}

/** A canonical stream of BACKEND whose run.finished says to resume SESSION. */
function recorded(backend: string, session: string): string {
  const file = scratch.path(`${backend}.canonical.jsonl`);
  const lines = [
    { v: 1, seq: 1, type: "run.started", backend },
    { v: 1, seq: 2, type: "run.finished", status: "needs_input", resume: { session_id: session } },
  ];
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return file;
}

describe("run: a tool name that is a flag", () => {
  it.each(NAMES)("%s: --allow-tool=--yolo and --deny-tool=--yolo are refused", async (backend) => {
    for (const option of ["--allow-tool", "--deny-tool"])
      expect(await refusedRun(["--backend", backend, `${option}=--yolo`])).toContain(`${option} "--yolo": ${AS_FLAG}`);
  });
});

describe("run: a model, provider or session id that is a flag", () => {
  it.each(NAMES.filter((name) => reaches(BACKENDS.find((b) => b.name === name)!.supports.model)))(
    "%s: --model=--yolo is refused",
    async (backend) => {
      expect(await refusedRun(["--backend", backend, "--model=--yolo"])).toContain(`--model "--yolo": ${AS_FLAG}`);
    },
  );

  it.each(NAMES.filter((name) => reaches(BACKENDS.find((b) => b.name === name)!.supports.provider)))(
    "%s: --provider=-x is refused",
    async (backend) => {
      expect(await refusedRun(["--backend", backend, "--provider=-x"])).toContain(`--provider "-x": ${AS_FLAG}`);
    },
  );

  it.each(NAMES)("%s: --resume=--yolo is refused", async (backend) => {
    expect(await refusedRun(["--backend", backend, "--resume=--yolo"])).toContain(`--resume "--yolo": ${AS_FLAG}`);
  });
});

describe("run --continue-from: a recorded session id no backend can be given", () => {
  it.each(NAMES)("%s: a session id holding NUL is the file's fault: exit 2 naming the id", async (backend) => {
    const file = recorded(backend, "ab\u0000--yolo");
    const stderr = await refusedRun(["--continue-from", file]);
    expect(stderr).toContain(
      `--continue-from ${file}: its session id "ab\\u0000--yolo" holds a NUL byte, which no program can be given as an argument`,
    );
    expect(stderr).not.toContain("not found");
  });

  it.each(NAMES)("%s: a session id starting with '-' does not become a flag", async (backend) => {
    const file = recorded(backend, "--yolo");
    expect(await refusedRun(["--continue-from", file])).toContain(`its session id "--yolo" ${AS_FLAG}`);
  });
});

/** The error run() throws for these options, before its first event. */
async function libraryRefusal(options: Partial<RunOptions>): Promise<UsageError> {
  const record = scratch.recordPath();
  const events = run({
    backend: "gemini",
    bin: STAND_IN,
    prompt: "hi",
    env: { ...process.env, STANDIN_RECORD: record },
    ...options,
  } as RunOptions);
  try {
    await events.next();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect(existsSync(record), "the backend was started").toBe(false);
    return err as UsageError;
  } finally {
    await events.return(undefined as never).catch(() => undefined);
  }
  throw new Error(`run() took ${JSON.stringify(options)}`);
}

describe("library run(): the same values refused, naming the option", () => {
  it.each([
    [{ allowTools: ["--yolo"] }, `run(): option allowTools "--yolo": ${AS_FLAG}`],
    [{ denyTools: ["shell", "-y"] }, `run(): option denyTools "-y": ${AS_FLAG}`],
    [{ denyTools: ["run\u007fshell"] }, 'run(): option denyTools "run\\u007fshell": holds a control character'],
    [{ model: "-m" }, `run(): option model "-m": ${AS_FLAG}`],
    [{ model: "m\u0000--yolo" }, 'run(): option model "m\\u0000--yolo": holds a NUL byte'],
    [{ resume: "--yolo" }, `run(): option resume "--yolo": ${AS_FLAG}`],
    [{ backendArgs: ["--sandbox", "a\u0000b"] }, "run(): option backendArgs (argument 2): holds a NUL byte"],
    [{ backend: "codex", workdir: "/tmp/a\u0000b" }, 'run(): option workdir "/tmp/a\\u0000b": holds a NUL byte'],
    [{ bin: "/bin/true\u0000x" }, 'run(): option bin "/bin/true\\u0000x": holds a NUL byte'],
    [{ cwd: "/tmp\u0000x" }, 'run(): option cwd "/tmp\\u0000x": holds a NUL byte'],
  ] as const)("%j", async (options, message) => {
    const err = await libraryRefusal(options as Partial<RunOptions>);
    expect(err.message).toContain(message);
  });
});
