import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { killAfterTest, STAND_IN, startCli } from "../../helpers/stand-in.js";

// Nothing starts before the prompt is read: a stop signal while `run ... -`
// waits for it on stdin ends agentstream there, with the signal's exit code,
// one line on stderr and nothing on stdout (no run.started without a run).

/**
 * Whether the process catches SIGHUP: agentstream listens for stop signals
 * once it waits for the prompt (node itself catches SIGINT and SIGTERM from
 * its start, SIGHUP only for a listener).
 */
function catchesSighup(pid: number): boolean {
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return mask !== undefined && (BigInt(`0x${mask}`) & 1n) !== 0n;
  } catch {
    return false;
  }
}

describe
  .runIf(process.platform === "linux")
  .concurrent("agentstream run -: a signal while it waits for the prompt on stdin", () => {
    it.for([
      ["SIGINT", 130],
      ["SIGTERM", 143],
      ["SIGHUP", 143],
    ] as const)(
      "%s: exit %i, nothing on stdout, one line on stderr, nothing started",
      async ([signal, code], { onTestFinished }) => {
        const run = startCli(["run", "--backend", "evosci", "--bin", STAND_IN, "-"], { stdin: "pipe" });
        killAfterTest(onTestFinished, run);
        // Wait (within a guard) until it listens; signalled either way, so that a failure shows as one.
        for (let look = 0; look < 400 && !catchesSighup(run.child.pid!); look++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        run.child.kill(signal);
        const result = await run.done;
        expect(result.signal).toBeNull();
        expect(result.code).toBe(code);
        expect(result.stdout).toBe("");
        expect(result.stderr).toBe(`agentstream: ${signal} while reading the prompt from stdin: nothing was started\n`);
      },
    );
  });
