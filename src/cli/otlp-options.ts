import { InvalidArgumentError, Option, type Command } from "commander";

// The OTLP options of run and normalize, and the URL check shared with
// `export otlp --endpoint`. Nothing here loads OpenTelemetry: that happens
// in ./otlp-export.ts, and only when export is asked for.

/** An http(s) URL; anything else is refused, so that `--otlp PROMPT` is not taken for an endpoint unnoticed. */
export function parseEndpoint(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new InvalidArgumentError(
      "expected an http(s) URL of an OTLP collector, such as http://localhost:4318 (to use the OTEL_EXPORTER_OTLP_* variables or the default, give --otlp with no value, after the prompt or file, or write --otlp=URL).",
    );
  }
  if (url.port === "0")
    throw new InvalidArgumentError(
      "port 0 names no collector: give the collector's port, such as http://localhost:4318.",
    );
  return value;
}

export function addOtlpOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--otlp [url]",
        "also export the run as OpenTelemetry traces over OTLP/HTTP to this collector (default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, $OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)",
      ).argParser(parseEndpoint),
    )
    .option(
      "--otlp-content",
      "with --otlp: also export prompts, answers, tool arguments and outputs (default: left out)",
    );
}
