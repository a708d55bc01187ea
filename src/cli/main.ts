import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { AgentstreamError } from "../core/errors.js";
import { EXIT_USAGE } from "../core/exit-codes.js";
import { VERSION } from "../version.js";

// Each command's module is loaded only when that command runs, so start-up
// pays for commander alone.

function parseBackendExit(value: string): string {
  if (/^(?:\d{1,3}|SIG[A-Z0-9]+)$/.test(value)) return value;
  throw new InvalidArgumentError("expected an exit code (0-255) or a signal name such as SIGTERM.");
}

function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("expected a positive integer.");
  return n;
}

export function buildProgram(): Command {
  const program = new Command("agentstream")
    .description(
      "Rewrite the JSONL events of AI agents (EvoScientist, Atomic, pi) into one canonical,\n" +
        "schema-validated JSONL stream: canonical events on stdout, human progress on stderr.",
    )
    .version(VERSION, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  program
    .command("normalize")
    .description("Translate a recorded native stream (file or stdin) into canonical JSONL on stdout.")
    .argument("[file]", "native JSONL transcript; - or nothing reads stdin", "-")
    .addOption(new Option("--from <backend>", "protocol of the input").choices(["auto", "evosci", "atomic", "pi"]).default("auto"))
    .option("--raw", "attach each native object to its canonical event as `raw`", false)
    .option("--no-deltas", "drop message.delta, reasoning.delta and tool.updated events")
    .option("--backend-exit <code|signal>", "how the recorded backend process ended (e.g. 0, 1, SIGTERM); decides the outcome of a stream with no terminal event", parseBackendExit)
    .option("--stderr <file>", "the backend's recorded stderr: used for the resume hint, start-up errors and stderr_tail")
    .option("--max-line-bytes <n>", "longest native line kept whole; longer ones become backend.unparsed", parsePositiveInt)
    .option("--no-validate", "skip the runtime schema check of each output event")
    .addHelpText(
      "after",
      `
Examples:
  $ agentstream normalize examples/evosci/tool-calls.jsonl
  $ EvoSci -p "..." --output-format stream-json | agentstream normalize --from evosci
  $ agentstream normalize --from pi --backend-exit 0 run.jsonl | jq -r 'select(.type=="run.finished") | .result.text'

Exit status follows the outcome of the recorded run (see the exit-code table in the README).`,
    )
    .action(async (file: string, opts) => {
      const { normalizeCommand } = await import("./normalize-command.js");
      await normalizeCommand(file, opts);
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

  program
    .command("schema")
    .description("Print the canonical v1 JSON Schema (draft 2020-12).")
    .addHelpText("after", "\nExample:\n  $ agentstream schema > canonical-v1.schema.json")
    .action(async () => {
      const { schemaCommand } = await import("./schema-command.js");
      await schemaCommand();
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeForError(err);
  }
}

/** The one place that turns a thrown error into agentstream's exit status. */
function exitCodeForError(err: unknown): number {
  if (err instanceof CommanderError) {
    // --help and --version end here with code 0; bad flags with 2.
    return err.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (err instanceof AgentstreamError) {
    process.stderr.write(`agentstream: ${err.message}\n`);
    if (err.hint) process.stderr.write(`hint: ${err.hint}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`agentstream: internal error: ${message}\n`);
  return 1;
}
