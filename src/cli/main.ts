import { BACKEND_DISPLAY_NAMES } from "../app/backend-help.js";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { helpText } from "../app/backend-help.js";
import { OPTIONS, cliNaming } from "../app/options.js";
import type { OptionRow, Command as TableCommand, OptionTable } from "../core/option-row.js";
import { parseEndpoint } from "../core/option-values.js";
import { AgentstreamError, OptionError, StoppedBeforeStart } from "../core/errors.js";
import { EXIT_USAGE, exitCodeForLostOutput, readerLeft } from "../core/exit-codes.js";
import { showControls, showControlsInLines } from "../core/control-chars.js";
import type { Redactor } from "../core/redactor.js";
import { REPORT_FORMAT_NAMES } from "../report/formats.js";
import { runRedactor } from "../run/redact.js";
import { VERSION } from "../version.js";
import { dropColourConflictWarning } from "./colour-warning.js";
import { type RefusingCommand, withUsageHint } from "./usage-hints.js";

// Each command's module is loaded only when that command runs, so start-up
// pays for commander alone.

/** A parser of the option table as commander takes it: its refusal said as commander says a bad value. */
function commanderParser<T>(parse: (text: string, previous: unknown) => T): (text: string, previous: unknown) => T {
  return (text, previous) => {
    try {
      return parse(text, previous);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
}

/**
 * Commander's options of one command, made from the option table, in its order (or these rows of it); those
 * `refused` are parsed (the command refuses them with its reason) but --help does not offer them.
 */
function addTableOptions(
  command: Command,
  name: TableCommand,
  table: OptionTable,
  rows = table.cliRows(name),
  refused: (row: OptionRow) => boolean = () => false,
): Command {
  for (const row of rows) {
    const { cli, check } = row;
    const option = new Option(cli.flags, helpText(cli.help));
    if (refused(row)) option.hideHelp();
    const parse = cli.parse ?? check.parse;
    if (parse) option.argParser(commanderParser(parse));
    if (cli.choices) option.choices(cli.choices);
    // The request fills in every default; commander is given those --help shows (and a list to add to).
    if (cli.showDefault) option.default(row.default, check.shown?.(row.default));
    command.addOption(option);
  }
  return command;
}

/** The program, its run and normalize options made from this table (a test's may have one more row). */
export function buildProgram(table: OptionTable = OPTIONS): Command {
  const program = new Command("agentstream")
    .description(
      `Rewrite the JSONL events of AI agents (${BACKEND_DISPLAY_NAMES}) into one canonical, ` +
        "schema-validated JSONL stream: canonical events on stdout, human progress on stderr.",
    )
    .version(VERSION, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    // One prefix for every error agentstream prints, commander's own included.
    .configureOutput({ outputError: (text, write) => write(withOurPrefix(text)) })
    .exitOverride()
    .addHelpText(
      "after",
      `
Examples:
  $ agentstream run --backend evosci "Summarize data/results.csv into notes.md"
  $ agentstream normalize --from pi --backend-exit 0 run.jsonl > canonical.jsonl
  $ agentstream verify canonical.jsonl
  $ agentstream schema > canonical-v1.schema.json

Run "agentstream help <command>" for a command's options, defaults and examples.
The exit status follows the run's outcome: 0 succeeded, 75 worth retrying (see run --help).`,
    );

  const run = program
    .command("run")
    .description("Run an agent and write its events, live, as canonical JSONL on stdout (progress on stderr).")
    .usage("--backend <name> [options] [--] <prompt>")
    .argument("[prompt]", "the prompt, passed verbatim as one argument; - reads it from stdin")
    // A prompt typed unquoted, an option that is normalize's, a prompt starting with -: each gets a hint.
    .configureOutput({ outputError: (text, write) => write(withOurPrefix(text, run)) });
  // Required, but --backend is checked after the unknown options (preAction below): `--backnd` is named as a typo.
  addTableOptions(run, "run", table)
    .addHelpText(
      "after",
      `
The backend gets no shell and no stdin; the prompt is one argument, never
parsed as a flag. SIGINT/SIGTERM stop the backend cleanly (a second one kills
it at once) and end the stream with run.finished "cancelled".

Examples:
  $ agentstream run --backend evosci "Summarize data/results.csv into notes.md"
  $ agentstream run --backend atomic --model openai/gpt-4o-mini -- "--help is not a flag here"
  $ agentstream run --backend pi --output text "Say hi" > answer.txt
  $ agentstream run --backend evosci --answer-file answer.txt "..." > events.jsonl
  $ echo "Explain precision vs recall" | agentstream run --backend evosci --timeout 600 -
  $ agentstream run --backend evosci --bin examples/replay-backend.mjs --verbose "any prompt"   # in a clone: a replay, no model
  $ agentstream run --backend evosci "..." | jq -r 'select(.type=="tool.completed") | .name'

Exit status follows the run's outcome (see the exit-code table in the README):
0 succeeded, 1 failed, 2 bad flags, 3 needs input, 69 backend not found,
74 stdout not writable, 75 retryable failure, 76 backend crashed, 77 auth,
78 config/start-up, 124 timed out, 130/143 cancelled by SIGINT/SIGTERM,
141 stdout closed.`,
    )
    .hook("preAction", (command) => {
      if (command.opts().backend === undefined && command.opts().continueFrom === undefined)
        command.error("error: required option '--backend <name>' not specified");
    })
    .action(async (prompt: string | undefined, opts) => {
      const { runCommand } = await import("./run-command.js");
      await runCommand(prompt, opts);
    });

  const normalize = program
    .command("normalize")
    .description("Translate a recorded native stream (file or stdin) into canonical JSONL on stdout.")
    .configureOutput({ outputError: (text, write) => write(withOurPrefix(text, normalize)) })
    .argument("[file]", "native JSONL transcript; - or nothing reads stdin", "-");
  addTableOptions(normalize, "normalize", table)
    .addHelpText(
      "after",
      `
Examples:
  $ agentstream normalize --backend-exit 0 examples/evosci/research.native.jsonl
  $ EvoSci -p "..." --output-format stream-json | agentstream normalize --from evosci
  $ agentstream normalize --from pi --backend-exit 0 --output text run.jsonl > answer.txt

Exit status follows the outcome of the recorded run (see the exit-code table in the README).`,
    )
    .action(async (file: string, opts) => {
      const { normalizeCommand } = await import("./normalize-command.js");
      await normalizeCommand(file, opts);
    });

  const compare: Command = program
    .command("compare")
    .description(
      "Run agents × tasks side by side, each cell in its own worktree, checked, resumable, sharded: one JSON row per cell on stdout.",
    )
    .usage("--backend <name[:model]>... --out <dir> [options] [--] <prompt...>")
    .argument("[prompt...]", "the prompt (its words joined by spaces); - reads it from stdin")
    .configureOutput({ outputError: (text, write) => write(withOurPrefix(text, compare)) });
  // Its own options, then every run option that shapes one run (its --backend is compare's list; stdout is rows).
  // What only one run can take is refused, and not offered.
  addTableOptions(
    compare,
    "compare",
    table,
    [
      ...table.cliRows("compare"),
      ...table.cliRows("run").filter((row) => row.key !== "backend" && row.key !== "output"),
    ],
    (row) => row.oneRun !== undefined,
  )
    .addHelpText(
      "after",
      `
Each cell (task × agent × repeat) is a run: the same options, the same stream,
written to <out>/cells/<id>/stream.jsonl with its stderr, diff, check log and
record. Run it again with the same --out to resume: finished cells are not run
again (their rows are printed again, "resumed": true). docs/compare.md has it all.

Exit status: 0 every cell succeeded and passed its check; 1 otherwise (mixed
outcomes, a failed check, a cell not run for the budget, a cell missing from
a merge); 75 every cell that did not pass failed retryably; 2 bad flags or plan
(nothing ran); 130/143 stopped by SIGINT/SIGTERM.

Examples:
  $ agentstream compare --backend claude:sonnet,codex --out runs/cmp "Fix the failing test" --check "npm test"
  $ agentstream compare --plan plan.yaml --out runs/cmp --parallel 4 --max-total-cost-usd 5
  $ agentstream compare --plan plan.yaml --out runs/shard-2 --shard 2/3
  $ agentstream compare --merge runs/shard-1 runs/shard-2 runs/shard-3 > rows.jsonl
  $ agentstream report runs/cmp >> "$GITHUB_STEP_SUMMARY"`,
    )
    .hook("preAction", (command) => {
      const opts = command.opts();
      if (opts.merge === undefined && opts.out === undefined)
        command.error("error: required option '--out <dir>' not specified");
    })
    .action(async (prompt: string[], opts) => {
      const { compareCommand } = await import("./compare-command.js");
      await compareCommand(prompt, opts);
    });

  program
    .command("verify")
    .description("Check a canonical stream: every line against the schema, and the stream rules.")
    .argument("[file]", "canonical JSONL; - or nothing reads stdin", "-")
    .addHelpText(
      "after",
      `
Problems are reported on stderr, one per line, with their line number.
Exit status: 0 when the stream is valid, 1 otherwise.

Examples:
  $ agentstream normalize run.jsonl | agentstream verify
  $ agentstream verify canonical.jsonl`,
    )
    .action(async (file: string) => {
      const { verifyCommand } = await import("./verify-command.js");
      await verifyCommand(file);
    });

  const exportGroup = program
    .command("export")
    .description(
      "Send recorded canonical streams elsewhere (export otlp: to an OpenTelemetry collector; export atif: as ATIF trajectories).",
    );
  const exportOtlp: Command = exportGroup
    .command("otlp")
    .configureOutput({ outputError: (text, write) => write(withOurPrefix(text, exportOtlp)) })
    .description(
      "Export recorded canonical streams (agentstream's own output) as OpenTelemetry traces over OTLP/HTTP, one trace per file.",
    )
    .usage("[--endpoint <url>] [--otlp-content] <file...>")
    .argument("<files...>", "canonical JSONL files, as run or normalize wrote them")
    .option(
      "--endpoint <url>",
      "the collector (/v1/traces is added to a base URL) (default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, $OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)",
      commanderParser(parseEndpoint),
    )
    .option("--otlp-content", "also export prompts, answers, tool arguments and outputs (default: left out)")
    .addHelpText(
      "after",
      `
Span times are the stream's own (ts, elapsed_ms): a recording exports with its
original timing. A progress bar is drawn on stderr when it is a terminal; a
line per file says what was sent.

Exit status: 0 every file was sent; 1 a file could not be read as a canonical
stream; 75 the collector did not take every span (down, slow, refusing): worth
retrying.

Examples:
  $ agentstream export otlp --endpoint http://localhost:4318 runs/*.jsonl
  $ OTEL_EXPORTER_OTLP_ENDPOINT=https://otel.example.com OTEL_EXPORTER_OTLP_HEADERS="x-api-key=..." agentstream export otlp run.jsonl`,
    )
    .action(async (files: string[], opts) => {
      const { exportOtlpCommand } = await import("./export-command.js");
      await exportOtlpCommand(files, opts);
    });

  const exportAtif: Command = exportGroup
    .command("atif")
    .configureOutput({ outputError: (text, write) => write(withOurPrefix(text, exportAtif)) })
    .description(
      "Write each run of recorded canonical streams as an ATIF trajectory (Harbor's Agent Trajectory Interchange Format, ATIF-v1.7).",
    )
    .usage("[--out <dir>] <file...>")
    .argument("<files...>", "canonical JSONL files, as run or normalize wrote them; - reads stdin")
    .option(
      "--out <dir>",
      "write one <run_id>.json per run into this folder (made if missing); needed for several runs",
    )
    .addHelpText(
      "after",
      `
One run: its document on stdout. Several runs (several files, or one stream
holding several): one file each with --out DIR, since ATIF readers take one
document per file. The mapping is in docs/atif.md.

Exit status: 0 written, whatever the runs' outcomes; 2 an input that is not a
canonical stream, or several runs without --out (nothing written on stdout);
74 a document could not be written.

Examples:
  $ agentstream normalize run.jsonl | agentstream export atif - > trajectory.json
  $ agentstream export atif --out trajectories/ runs/*.jsonl`,
    )
    .action(async (files: string[], opts) => {
      const { exportAtifCommand } = await import("./export-atif-command.js");
      await exportAtifCommand(files, opts);
    });

  program
    .command("report")
    .description(
      "Summarize canonical streams as Markdown (for a CI job summary), JSON or HTML: outcome, answer, tool calls, tokens, cost.",
    )
    .argument(
      "[files...]",
      "canonical JSONL streams (agentstream run or normalize output); - or nothing reads stdin; or compare --out folders (a compare's side by side)",
    )
    .addOption(
      new Option("--format <format>", "md, json or html (default: from --out's extension, else md)").choices(
        REPORT_FORMAT_NAMES,
      ),
    )
    .option(
      "--out <file>",
      "write the report to this file (through a temporary file renamed over it) instead of stdout",
    )
    .addHelpText(
      "after",
      `
One file reports its run in detail; several give one row per run, totals,
the success rate and the slowest tools. A stream cut short (no run.finished)
is reported as incomplete. The streams are read as they stream: memory stays
flat however long they are.

Exit status: 0 when the report is written (the runs' outcomes are in it),
2 when an input cannot be read or is not a canonical stream.

Examples:
  $ agentstream report run.jsonl >> "$GITHUB_STEP_SUMMARY"
  $ agentstream report --out report.json logs/*.jsonl
  $ agentstream normalize --from pi run.native.jsonl | agentstream report -`,
    )
    .action(async (files: string[], opts) => {
      const { reportCommand } = await import("./report-command.js");
      await reportCommand(files, opts);
    });

  program
    .command("schema")
    .description("Print the canonical v1 JSON Schema (draft 2020-12).")
    .addHelpText(
      "after",
      `
The same file ships in the package as schemas/canonical-v1.schema.json
(import "agentstream/schema").

Example:
  $ agentstream schema > canonical-v1.schema.json`,
    )
    .action(async () => {
      const { schemaCommand } = await import("./schema-command.js");
      await schemaCommand();
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  dropColourConflictWarning();
  // A reader that goes away early (`agentstream --help | head -1`) ends us quietly with 141;
  // a stdout that cannot be written (a full disk, a broken device) with one line and 74.
  let outputErrorSaid = false;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    process.exitCode = exitCodeForLostOutput(err);
    if (readerLeft(err) || outputErrorSaid) return;
    outputErrorSaid = true;
    process.stderr.write(`agentstream: cannot write to stdout: ${err.message.replace(/, write$/, "")}\n`);
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeForError(err);
  }
}

/**
 * commander says "error: ..."; agentstream says "agentstream: ..." everywhere,
 * with a hint where one helps. The message quotes the user's arguments: their
 * control characters are shown, never sent.
 */
function withOurPrefix(text: string, command?: RefusingCommand): string {
  return showControlsInLines(hidden(withUsageHint(text.replace(/^error: /, "agentstream: "), command)));
}

let environmentSecrets: Redactor | undefined;

/**
 * TEXT with the environment's secrets and token shapes hidden, as a run hides them: a message
 * may quote a path, an argument or an agent's words, and a stack the values it failed on.
 */
function hidden(text: string): string {
  environmentSecrets ??= runRedactor([], process.env);
  return environmentSecrets.text(text);
}

/** The one place that turns a thrown error into agentstream's exit status. */
function exitCodeForError(thrown: unknown): number {
  // An error about run options names them as the command line spells them.
  const err =
    thrown instanceof OptionError || thrown instanceof StoppedBeforeStart ? thrown.wordedAs(cliNaming) : thrown;
  if (err instanceof CommanderError) {
    // --help and --version end here with code 0; bad flags with 2.
    return err.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (err instanceof AgentstreamError) {
    // Messages quote paths and arguments as given.
    process.stderr.write(`agentstream: ${showControls(hidden(err.message))}\n`);
    if (err.hint) process.stderr.write(`hint: ${showControls(hidden(err.hint))}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`agentstream: internal error: ${showControlsInLines(hidden(message))}\n`);
  return 1;
}
