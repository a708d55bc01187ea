import { cliNaming } from "../app/options.js";
import { requestFromCli, type RunRequest } from "../app/request.js";
import { promptOnStdin, refuseOverwrites, stdoutFile } from "../app/shared-files.js";
import { compareRows, prepareCompare } from "../compare/compare.js";
import { compareExitCode } from "../compare/exit-status.js";
import { mergeFolders, missingShown } from "../compare/merge.js";
import type { CompareRequest } from "../compare/options.js";
import { Progress } from "../compare/progress.js";
import { sideBySideText, Tally } from "../compare/side-by-side.js";
import { HostStop } from "../run/host.js";
import { readPrompt } from "../run/prompt.js";
import { EarlyStop } from "../run/stop-signals.js";

/**
 * `agentstream compare`: the cells of the plan run (this shard's), one JSON row per cell on stdout as it
 * ends, a line per cell (a live table on a terminal) and the side by side on stderr. With --merge, nothing
 * runs: the folders' rows and side by side, as one unsharded compare would have printed them.
 */
export async function compareCommand(words: string[], parsed: Record<string, unknown>): Promise<void> {
  if (parsed.merge !== undefined) return mergeCommand(parsed.merge as string[]);
  // compare's --backend is its list of agents (its own row); run's options are the rest.
  const { backend: _agents, ...runFlags } = parsed;
  const { request, notes } = requestFromCli("run", runFlags);
  const { request: own } = requestFromCli("compare", parsed);
  const argument = words.length === 0 ? undefined : words.join(" ");
  refuseOverwrites(
    "run",
    request,
    argument === "-" && request.promptFile === undefined ? [promptOnStdin(), stdoutFile()] : [stdoutFile()],
  );
  const progress = new Progress(process.stderr, request.quiet === true);
  for (const note of notes) progress.say(note(cliNaming));
  const stops = new EarlyStop();
  const stop = new AbortController();
  let stoppedBy: "SIGINT" | "SIGTERM" | undefined;
  stops.listen((signal, again) => {
    if (again) {
      // As a second signal to `run`: no more waiting, every cell's agent and command killed now.
      progress.say(`${signal} again: killing every cell now`);
      if (stop.signal.reason instanceof HostStop) stop.signal.reason.killNow();
      return;
    }
    stoppedBy = signal === "SIGINT" ? "SIGINT" : "SIGTERM";
    progress.say(`${signal}: stopping every cell`);
    stop.abort(new HostStop({ kind: "signal", signal }));
  });
  try {
    const tally = await compareWith(own, request, argument, { stops, stop: stop.signal, progress });
    process.exitCode = compareExitCode(tally, stoppedBy);
  } finally {
    stops.end();
  }
}

async function compareWith(
  own: CompareRequest,
  request: RunRequest,
  argument: string | undefined,
  host: { stops: EarlyStop; stop: AbortSignal; progress: Progress },
): Promise<Tally> {
  const prompt =
    argument === undefined && request.promptFile === undefined
      ? undefined
      : await readPrompt(argument, request.promptFile, process.stdin, "NAME", host.stops);
  const prepared = await prepareCompare(own, request, prompt, { env: process.env, stops: host.stops });
  for (const note of prepared.notes) host.progress.say(note);
  const shard = prepared.shard
    ? ` (shard ${prepared.shard.index}/${prepared.shard.total} of ${prepared.cells.length})`
    : "";
  host.progress.say(
    `${prepared.mine.length} cell(s)${shard}, at most ${prepared.parallel} at once, in ${prepared.out}`,
  );
  // The side by side, made as the rows come (in the plan's order, as a merge of its shards shows it): no row is kept.
  const order = new Map(prepared.cells.map((cell) => [cell.id, cell.index]));
  const tally = new Tally();
  for await (const row of compareRows(prepared, own, request, {
    stop: host.stop,
    stops: host.stops,
    naming: cliNaming,
    onStart: (cell) => host.progress.started(cell),
    exportProblem: (line) => void process.stderr.write(line),
  })) {
    tally.add(row, order.get(row.cell_id));
    process.stdout.write(`${JSON.stringify(row)}\n`);
    host.progress.ended(row);
  }
  host.progress.done();
  process.stderr.write(sideBySideText(tally.summary()));
  return tally;
}

function mergeCommand(dirs: string[]): void {
  const { rows, missing } = mergeFolders(dirs);
  const tally = new Tally();
  for (const row of rows) {
    process.stdout.write(`${JSON.stringify(row)}\n`);
    tally.add(row);
  }
  for (const cell of missing)
    process.stderr.write(`agentstream: missing: no folder holds the cell ${missingShown(cell)}\n`);
  process.stderr.write(sideBySideText(tally.summary(missing.map((cell) => cell.id))));
  process.exitCode = compareExitCode(tally, undefined, missing.length);
}
