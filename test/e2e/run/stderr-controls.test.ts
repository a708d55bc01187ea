import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { eachLine, runStandIn, Scratch, spawnCli, STAND_IN, transcript } from "../../helpers/stand-in.js";

const scratch = new Scratch();
afterAll(() => scratch.remove());

// Retitles the terminal, rings, clears the screen.
const HOSTILE = "ls\u001b]0;pwned\u0007\u001b[2J";
const SHOWN = "ls␛]0;pwned␇␛[2J";
// Any control character but the newline that ends each line.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A directory whose name is the hostile text, holding a program that cannot start (its interpreter is missing). */
function hostileDirectory(): string {
  const dir = join(scratch.dir, `d-${HOSTILE}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "no-interpreter"), "#!/nonexistent/interpreter\n");
  chmodSync(join(dir, "no-interpreter"), 0o755);
  return dir;
}

/** A canonical-looking line whose type and an unknown field are the hostile text. */
function hostileStream(): string {
  const file = scratch.path("hostile.jsonl");
  writeFileSync(
    file,
    `${JSON.stringify({ v: 1, seq: 1, ts: "2026-01-01T00:00:00.000Z", elapsed_ms: 0, run_id: "r", backend: "evosci", type: HOSTILE })}\n`,
  );
  return file;
}

describe.concurrent("every stderr message that quotes user or native text shows its control characters", () => {
  const dir = hostileDirectory();
  const cases: Array<{ path: string; args: string[]; env?: NodeJS.ProcessEnv }> = [
    { path: "a usage error (--prompt-file)", args: ["run", "--backend", "evosci", "--prompt-file", HOSTILE] },
    { path: "a usage error (--cwd)", args: ["run", "--backend", "evosci", "--cwd", HOSTILE, "x"] },
    { path: "commander: an invalid choice", args: ["run", "--backend", HOSTILE, "x"] },
    { path: "commander: an unknown option, and its hint", args: ["run", "--backend", "evosci", `--${HOSTILE}`] },
    { path: "normalize: a missing file", args: ["normalize", HOSTILE] },
    { path: "normalize: a missing --stderr", args: ["normalize", "--stderr", HOSTILE, "-"] },
    { path: "verify: a problem quoting the stream", args: ["verify", hostileStream()] },
    {
      path: "run: a --bin that does not exist (summary and hint)",
      args: ["run", "--backend", "evosci", "--bin", join(dir, "missing"), "x"],
    },
    {
      path: "run: a backend from the environment that does not exist",
      args: ["run", "--backend", "pi", "x"],
      env: { AGENTSTREAM_PI_BIN: join(dir, "missing") },
    },
    {
      path: "run: a backend that cannot start (summary and hint)",
      args: ["run", "--backend", "evosci", "--bin", join(dir, "no-interpreter"), "x"],
    },
  ];

  for (const { path, args, env } of cases) {
    it(path, async () => {
      const result = await runCli(args, { env, input: "" });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(SHOWN);
      expect(result.stderr).not.toMatch(RAW_CONTROL);
    });
  }

  it("run: a translator bug whose error quotes native text", async () => {
    // The built EvoScientist translator throws with the hostile text, as a bug quoting a native value would.
    const translator = new URL("../../../dist/backends/evosci/translator.js", import.meta.url).href;
    const hook = `import { EvosciTranslator as T } from ${JSON.stringify(translator)};
      const translate = T.prototype.translate;
      T.prototype.translate = function (event) { if (event.type === "tool_call") throw new Error(${JSON.stringify(HOSTILE)}); return translate.call(this, event); };`;
    const child = spawnCli(["run", "--backend", "evosci", "--bin", STAND_IN, "x"], {
      node: ["--import", `data:text/javascript,${encodeURIComponent(hook)}`],
      env: { STANDIN_TRANSCRIPT: transcript("evosci-steps.jsonl") },
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    await Promise.all([eachLine(child.stdout, () => {}), new Promise((resolve) => child.on("close", resolve))]);
    expect(stderr).toContain(`agentstream: bug: translating a "tool_call" event failed (${SHOWN})`);
    expect(stderr).not.toMatch(RAW_CONTROL);
  });

  it("run: a failure summary's details and the backend's stderr tail", async () => {
    const knobs = { STANDIN_STDERR: `Error: ${HOSTILE}\n`, STANDIN_END: "exit:1" };
    const { result } = await runStandIn(scratch, ["--backend", "evosci", "x"], { knobs });
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/│ Error: ls␛\]0;pwned␇␛\[2J/);
    expect(result.stderr.split(SHOWN).length - 1).toBeGreaterThanOrEqual(2);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });
});
