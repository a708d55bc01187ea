// The compare the CLI and the library share: its options planned (every refusal before any cell starts),
// then its cells run, their rows handed on as each ends.
import { resolve } from "node:path";
import type { RunRequest } from "../app/request.js";
import { OptionError, type OptionNaming } from "../core/errors.js";
import type { StopWatch } from "../run/stop-signals.js";
import { planCompare, type CompareRequest, type PlannedCompare } from "./options.js";
import type { CompareSpan } from "../export/compare-span.js";
import { HostStop } from "../run/host.js";
import { VERSION } from "../version.js";
import { compareExitCode } from "./exit-status.js";
import { shownAgent, type Cell } from "./plan.js";
import type { CompareRow } from "./row.js";
import { Tally } from "./side-by-side.js";
import { runCompare } from "./run.js";
import { sourceOf, uncommitted, type Source } from "./workspace.js";

export interface PreparedCompare extends PlannedCompare {
  source: Source;
  out: string;
}

export async function prepareCompare(
  own: CompareRequest,
  request: RunRequest,
  prompt: string | undefined,
  options: { env: NodeJS.ProcessEnv; stops?: StopWatch },
): Promise<PreparedCompare> {
  if (own.out === undefined)
    throw new OptionError((name) => `${name("out")} DIR is required: each cell's files are kept there`);
  const out = resolve(own.out);
  const source = await sourceOf(resolve(request.cwd ?? process.cwd()));
  const planned = await planCompare(own, request, prompt, source, options.env, options.stops);
  if (planned.workspace === "worktree" || planned.mine.some((cell) => cell.task.workspace === "worktree")) {
    const changed = await uncommitted(source, out);
    if (changed.length > 0)
      planned.notes.push(
        `the work tree has ${changed.length} uncommitted change(s) (${changed.slice(0, 3).join(", ")}${changed.length > 3 ? ", ..." : ""}): each cell's worktree holds only what is committed (${source.git!.commit.slice(0, 12)})`,
      );
  }
  return { ...planned, source, out };
}

export async function* compareRows(
  prepared: PreparedCompare,
  own: CompareRequest,
  request: RunRequest,
  host: {
    stop: AbortSignal;
    stops?: StopWatch;
    naming: OptionNaming;
    onStart?(cell: Cell): void;
    /** Where the compare's own span says it did not reach its collector (--otlp). */
    exportProblem(line: string): void;
  },
): AsyncGenerator<CompareRow, void> {
  const trace = request.otlp ? await openCompareTrace(prepared, request.otlp.endpoint) : undefined;
  // The span's outcome (--otlp): counted as the rows come.
  const tally = new Tally();
  try {
    for await (const row of runCompare({
      cells: prepared.cells,
      mine: prepared.mine,
      shard: prepared.shard,
      out: prepared.out,
      source: prepared.source,
      workspace: prepared.workspace,
      parallel: prepared.parallel,
      retryFailed: own.retry === "failed",
      keep: own.keep === true,
      checkTimeoutMs: own.checkTimeoutMs,
      maxTotalCostUsd: own.maxTotalCostUsd,
      request,
      naming: host.naming,
      stop: host.stop,
      ...(host.stops ? { stops: host.stops } : {}),
      ...(host.onStart ? { onStart: host.onStart } : {}),
      ...(trace ? { traceParent: trace.parent } : {}),
    })) {
      if (trace) tally.add(row);
      yield row;
    }
  } finally {
    if (trace) {
      const reason: unknown = host.stop.reason;
      const signal =
        reason instanceof HostStop && reason.interruption.kind === "signal" ? reason.interruption.signal : undefined;
      const stoppedBy = signal === "SIGINT" || signal === "SIGTERM" ? signal : undefined;
      const warning = await trace.end({
        exitCode: compareExitCode(tally, stoppedBy),
        passed: tally.passed,
        failed: tally.failing,
        resumed: tally.resumed,
        ...(stoppedBy ? { stoppedBy } : {}),
      });
      if (warning) host.exportProblem(`agentstream: ${warning}; the compare itself is not affected\n`);
    }
  }
}

/** The compare's span (--otlp): OpenTelemetry loaded only now, as a run's export is. */
async function openCompareTrace(prepared: PreparedCompare, endpoint: string | undefined): Promise<CompareSpan> {
  const { openCompareSpan, COMPARE_ATTR } = await import("../export/compare-span.js");
  const agents = [...new Set(prepared.mine.map((cell) => shownAgent(cell.agent)))];
  return openCompareSpan(
    { ...(endpoint !== undefined ? { endpoint } : {}), content: false, version: VERSION },
    {
      [COMPARE_ATTR.cells]: prepared.mine.length,
      [COMPARE_ATTR.agents]: agents,
      ...(prepared.shard ? { [COMPARE_ATTR.shard]: `${prepared.shard.index}/${prepared.shard.total}` } : {}),
    },
  );
}
