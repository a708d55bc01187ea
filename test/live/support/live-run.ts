import { readdirSync } from "node:fs";
import { BIN, parseJsonl } from "../../helpers/cli.js";
import { runArgsFor, withScenarioHome } from "./backend-home.mjs";
import { wantsLatest } from "../../helpers/live/live-targets.mjs";
import { SCENARIOS } from "./scenarios.mjs";
import { spawnCollect } from "../../helpers/live/spawn-collect.mjs";

export type ScenarioName = keyof typeof SCENARIOS;

/** One installed backend release, as the installer reports it. */
export interface LiveTarget {
  id: string;
  /** Set on a backend's newest release (--latest): the id of the pin it was found beside. */
  latestOf?: string;
  backend: string;
  package: string;
  version: string;
  executable: string;
  runtime: string;
  reported: string;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read any field of any event
export type CanonicalLine = Record<string, any>;

/** What the fake model server saw and reported during the run. */
export interface ServerRecord {
  usage: { input_tokens: number; output_tokens: number };
  requestsFor(scenario: string): Array<{
    attempt: number;
    /** The request as the backend sent it (its wire's JSON). */
    // biome-ignore lint/suspicious/noExplicitAny: a provider's request body, read field by field
    body: Record<string, any>;
    reply: { status: number; toolCalls: Array<{ id: string; name: string; arguments: unknown }> };
  }>;
}

export interface LiveRun {
  events: CanonicalLine[];
  finished: CanonicalLine;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  server: ServerRecord;
  /** What the working directory held when the run ended (a tool's command may have made a file). */
  files: string[];
}

/**
 * How an agent that speaks the Agent Client Protocol is started by `run --backend acp --bin EXECUTABLE`: its own
 * arguments (--backend-arg), the backend-home setup that points it at the fake model (backend-home.mjs), and
 * what else its environment needs.
 */
export interface AcpLaunch {
  home: string;
  agentArgs: string[];
  env?: Record<string, string>;
  /**
   * Driven as this backend over ACP (`run --backend NAME --transport acp --bin ADAPTER`, with these run options:
   * its model, its provider) rather than as `--backend acp`.
   */
  transport?: { backend: string; runArgs: string[] };
}

/** When to interrupt a run: from agentstream's stdout so far and what the fake server has seen. */
export type InterruptWhen = (stdout: string, server: ServerRecord) => boolean;

const firstDelta: InterruptWhen = (stdout) => stdout.includes('"type":"message.delta"');

// A guard, not an expectation: a hung backend ends as timed_out instead of hanging the suite.
const RUN_TIMEOUT_SECONDS = 300;

/**
 * Run `agentstream run` on one scenario against a fresh fake model server and
 * a throw-away home. With `interrupt`, SIGINT goes to agentstream as soon as
 * the first text delta shows the backend is streaming, or, given a condition,
 * as soon as that holds (checked on stdout and every 100 ms). With `apiDown`,
 * the fake server is closed before the run starts. With `acp`, the target is
 * driven as an ACP agent (`--backend acp`, or its backend's `--transport acp`) instead of as its own backend.
 */
export function runScenario(
  target: LiveTarget,
  scenario: ScenarioName,
  options: { interrupt?: boolean | InterruptWhen; args?: string[]; apiDown?: boolean; acp?: AcpLaunch } = {},
): Promise<LiveRun> {
  const { acp } = options;
  return withScenarioHome(
    acp?.home ?? target.backend,
    scenario,
    async (home: { cwd: string; env: Record<string, string> }, server: ServerRecord & { close(): Promise<void> }) => {
      // The model API is down: its port, already in the backend's settings, now refuses connections.
      if (options.apiDown) await server.close();
      const agentArgs = acp?.agentArgs.map((arg) => `--backend-arg=${arg}`) ?? [];
      const backend = acp?.transport
        ? [
            "--backend",
            acp.transport.backend,
            "--transport",
            "acp",
            "--bin",
            target.executable,
            ...acp.transport.runArgs,
          ]
        : acp
          ? ["--backend", "acp", "--bin", target.executable]
          : ["--backend", target.backend, "--bin", target.executable, ...runArgsFor(target.backend, scenario, home)];
      const args = [
        BIN,
        "run",
        ...backend,
        ...agentArgs,
        "--cwd",
        home.cwd,
        "--timeout",
        String(RUN_TIMEOUT_SECONDS),
        // Newest-release runs keep each native object, so the fields a translator does not read can be counted.
        ...(wantsLatest() ? ["--raw"] : []),
        ...(options.args ?? []),
        SCENARIOS[scenario].prompt,
      ];
      const result = await spawnCollect(process.execPath, args, {
        env: { ...home.env, ...acp?.env },
        stopWhen: options.interrupt
          ? (stdout: string) => (options.interrupt === true ? firstDelta : options.interrupt!)(stdout, server)
          : undefined,
        stopSignal: "SIGINT",
        pollMs: 100,
      });
      const events = parseJsonl(result.stdout) as CanonicalLine[];
      const finished = events.at(-1);
      if (finished?.type !== "run.finished") {
        throw new Error(
          `no run.finished at the end of the stream\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`,
        );
      }
      const files = readdirSync(home.cwd);
      return {
        events,
        finished,
        exitCode: result.exitCode,
        stdout: result.stdout,
        stderr: result.stderr,
        server,
        files,
      };
    },
  );
}

/** `agentstream verify` on a stream: its report (stderr) and exit code. */
export async function verifyStream(stdout: string): Promise<{ exitCode: number | null; report: string }> {
  const result = await spawnCollect(process.execPath, [BIN, "verify", "-"], { input: stdout });
  return { exitCode: result.exitCode, report: result.stderr };
}

export function eventsOfType(run: LiveRun, type: string): CanonicalLine[] {
  return run.events.filter((e) => e.type === type);
}
