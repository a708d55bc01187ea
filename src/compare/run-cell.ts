// One cell's run: the same request → plan → session path as `agentstream run` (prepareRun, startRun, which
// opens the outputs' sinks), its canonical stream written to its own file instead of stdout and its stderr to another.
// The one place a compare runs an agent: the cell around it (workspace, diff, check, record) never does.
import { randomUUID } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { prepareRun } from "../app/agent-run.js";
import type { RunRequest } from "../app/request.js";
import { ending, startRun } from "../app/session.js";
import type { CanonicalEvent, EventOf } from "../canonical/events.js";
import { systemClock } from "../core/clock.js";
import { wordedWith, type OptionNaming } from "../core/errors.js";
import type { Redactor } from "../core/redactor.js";
import type { TraceParent } from "../export/run-trace.js";
import { stdoutSink } from "../output/stdout-sink.js";
import { HostStop } from "../run/host.js";
import type { StopWatch } from "../run/stop-signals.js";

export interface CellRun {
  /** The run's request: the compare's run options with this cell's agent, workspace and files. */
  request: RunRequest;
  prompt: string;
  /** Where its canonical stream and its stderr (the backend's, and agentstream's words on the run) go. */
  streamFile: string;
  stderrFile: string;
  /** Stops the run: its reason a HostStop (a stop signal, the budget), else an abort (the library's caller). */
  signal: AbortSignal;
  /** Stop signals heard while the run is planned (the CLI); the library's caller has its AbortSignal. */
  stops?: StopWatch;
  /** Each event of the run, as written (redacted): the budget across cells watches them. */
  onEvent(event: CanonicalEvent): void;
  /** How notes name the options: the CLI's flags or the library's names. */
  naming: OptionNaming;
  /** The compare's span (--otlp): the run's trace hangs under it. */
  traceParent?: TraceParent;
}

export interface CellRunEnd {
  finished: EventOf<"run.finished"> | undefined;
  redactor: Redactor;
}

/** Plans an agent's run as `run` plans it, starting nothing: its options refused as `run` refuses them. */
export async function planCellRun(request: RunRequest, prompt: string, stops?: StopWatch): Promise<void> {
  await prepareRun(request, () => prompt, stops);
}

/** Runs the cell's agent to its end: its run.finished (undefined only if it was never written). */
export async function runCell(cell: CellRun): Promise<CellRunEnd> {
  const spec = await prepareRun(cell.request, () => cell.prompt, cell.stops);
  const { redactor } = spec.plan;
  const raw = createWriteStream(cell.stderrFile);
  const stderr = redactor.stream(raw);
  const say = (line: string): void => void stderr.write(`[agentstream] ${line.trimEnd()}\n`);
  const streamOut = createWriteStream(cell.streamFile);
  try {
    const stream = await stdoutSink("jsonl", { validate: cell.request.validate, out: streamOut });
    let finished: EventOf<"run.finished"> | undefined;
    const watch = {
      name: "compare",
      event: (event: CanonicalEvent) => {
        if (event.type === "run.finished") finished = event;
        cell.onEvent(event);
      },
      end: () => {},
    };
    // A stop signal heard while the run was planned: the run starts stopped, and ends cancelled by it.
    const signalled = cell.stops?.signal;
    const stop =
      signalled && !cell.signal.aborted
        ? AbortSignal.abort(new HostStop({ kind: "signal", signal: signalled }))
        : cell.signal;
    const session = await startRun(spec, {
      runId: randomUUID(),
      clock: systemClock,
      stdout: stream,
      // The cell's outputs (--atif, --report, --answer-file, made per cell) opened by the session, as run's are.
      outputs: {
        optionName: (key) => cell.naming(key),
        notice: say,
        exportProblem: say,
        ...(cell.traceParent ? { traceParent: cell.traceParent } : {}),
      },
      sinks: [watch],
      warn: (line) => say(redactor.shown(line)),
      onStderr: (chunk) => stderr.write(chunk),
      stderrShown: {
        get needsDrain() {
          return raw.writableNeedDrain;
        },
        drained: () => once(raw, "drain").then(() => undefined),
      },
      onStatus: say,
      onTranslatorBug: say,
      onNote: (note) => say(wordedWith(note, cell.naming)),
      onWarning: say,
      processSignals: false,
      abortSignal: stop,
    });
    await ending(session);
    await session.end();
    return { finished, redactor };
  } finally {
    await closed(streamOut);
    await closed(raw);
  }
}

async function closed(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  stream.end();
  await once(stream, "close");
}
