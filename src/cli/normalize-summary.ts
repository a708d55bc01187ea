import type { ChalkInstance } from "chalk";
import type { Detection, EventOf } from "../canonical/events.js";
import { showControls } from "../core/control-chars.js";
import { firstLine } from "../human/format.js";
import { sessionsNote, summaryLines } from "../human/stderr-summary.js";
import { BACKENDS, BACKEND_NAMES, protocolOf } from "../backends/registry.js";
import type { BackendDetector, Verdict } from "../core/translator.js";

/** What normalize knows once the stream is translated. */
export interface NormalizeFacts {
  input: string;
  /** The backend the stream was read as (run.started's). */
  backend: string;
  detection: Detection;
  /** What the content showed, whatever --from said. */
  content: BackendDetector;
  bytesRead: number;
  nativeEvents: number;
  finished: EventOf<"run.finished">;
  /** The span of the times the stream states (native_ts), null where it states none: the run's own duration. */
  nativeSpanMs: number | null;
}

// The summary's first line only, unwrapped: the details are in the stream.
const ONE_LINE = 10_000;
const HOW: Record<Detection, string> = { given: "as given", detected: "detected", guessed: "a guess" };

/** Said the moment detection has to guess, while the stream is still being read (a live pipe). */
export function guessNotice(verdict: Verdict, heldBytes: number): string {
  return `agentstream: ${heldBytes / 1024 / 1024} MiB read and the input has not shown which backend wrote it: read as ${verdict.backend}, a guess (name it with --from)\n`;
}

/** Said once when stdin is a terminal: agentstream is waiting for input, not stuck. */
export const TERMINAL_NOTICE = "agentstream: reading a native stream from stdin (Ctrl-D ends it)…\n";

/**
 * normalize's last words on stderr: one summary line and a hint, when the
 * outcome is bad, the backend was a guess, or the content contradicts --from.
 * Nothing when all went well, so a pipeline's stderr stays quiet.
 */
export function normalizeSummary(f: NormalizeFacts, c: ChalkInstance): string {
  const hint = hintFor(f);
  const sessions = sessionsNote(f.finished);
  if (f.finished.exit_code === 0 && f.detection !== "guessed" && hint === undefined && sessions === undefined)
    return "";
  const unparsed = f.finished.counts.unparsed_lines;
  const read =
    f.bytesRead === 0
      ? "empty input"
      : f.nativeEvents === 0
        ? `no JSON event in ${plural(unparsed, "line")}`
        : `${plural(f.nativeEvents, "JSON event")}${unparsed > 0 ? ` and ${plural(unparsed, "other line")}` : ""}`;
  const name = f.input === "-" ? "stdin" : showControls(f.input);
  const line = `agentstream: ${name}: ${read}, read as ${f.backend} (${HOW[f.detection]}) · ${outcomeOf(f, c)}\n`;
  const said = sessions === undefined ? line : `${line}agentstream: ${sessions}\n`;
  return hint === undefined ? said : `${said}hint: ${hint}\n`;
}

/** The outcome's part of the line; for an empty input, that it was empty (no backend ran, none crashed). */
function outcomeOf(f: NormalizeFacts, c: ChalkInstance): string {
  const error = f.finished.status === "succeeded" ? undefined : f.finished.error;
  const recorded = { spanMs: f.nativeSpanMs };
  if (f.bytesRead > 0 || !error) return withError(summaryLines(f.finished, c, ONE_LINE, recorded)[0]!, f.finished);
  const head = summaryLines({ ...f.finished, error: undefined }, c, ONE_LINE, recorded)[0]!;
  return beforeExit(head, ` · the input was empty: nothing to translate (${showControls(error.code)})`);
}

/** The summary's head with the error's code and the first line of its message before the exit code: this one line is all normalize says. */
function withError(head: string, finished: EventOf<"run.finished">): string {
  const error = finished.status === "succeeded" ? undefined : finished.error;
  if (!error) return head;
  return beforeExit(head, ` · ${showControls(error.code)}: ${firstLine(error.message)}`);
}

function beforeExit(head: string, said: string): string {
  const exit = / · exit \d+$/.exec(head);
  return exit ? `${head.slice(0, exit.index)}${said}${exit[0]}` : `${head}${said}`;
}

function hintFor(f: NormalizeFacts): string | undefined {
  const unparsed = f.finished.counts.unparsed_lines;
  if (!f.content.showedNative && f.content.canonicalEvents > 0 && f.content.canonicalEvents >= unparsed)
    return "this looks like a canonical stream (agentstream's own output): check it with agentstream verify";
  const shown = shownBackend(f.content, f.backend);
  // Read as Qwen Code (ACP under its own name): content that shows ACP is what it writes.
  const readAs = BACKENDS.find((b) => b.name === f.backend);
  const fits = readAs?.transport !== undefined && shown?.some((b) => protocolOf(b) === readAs.protocol);
  if (shown && !shown.includes(f.backend) && !fits) {
    const tries = shown.map((b) => `--from ${b}`).join(" or ");
    return `this looks like ${shown.map(displayName).join(" or ")}: try ${tries}`;
  }
  // Only types other formats write too ("error", "text" of another shape): say what was seen, the guess is only that.
  if (f.detection === "guessed" && f.content.showedNative && !f.content.protocolFamily) {
    const seen = f.content.typesSeen.map((t) => JSON.stringify(showControls(t))).join(", ");
    return `no event showed a protocol's own markers (types seen: ${seen}): read as ${displayName(f.backend)}, a guess; name the backend with --from ${inWords(BACKEND_NAMES)}`;
  }
  if (f.bytesRead > 0 && !f.content.showedNative)
    return `this is not a native stream: normalize reads the JSON lines ${inWords(BACKENDS.map((b) => b.displayName))} write on stdout`;
  if (f.detection === "guessed" && f.nativeEvents > 0) {
    return shown
      ? `the stream does not tell ${shown.map(displayName).join(" from ")}: name it with ${shown.map((b) => `--from ${b}`).join(" or ")}`
      : `name the backend with --from ${inWords(BACKEND_NAMES)}`;
  }
  return undefined;
}

/** The backends the content points to: one once it decided, all of a protocol it showed only (the one read as first). */
function shownBackend(content: BackendDetector, readAs: string): string[] | undefined {
  if (content.decided) return [content.decided.backend];
  const family = BACKENDS.filter((b) => b.protocol === content.protocolFamily && b.transport === undefined).map(
    (b) => b.name,
  );
  if (family.length === 0) return undefined;
  return [...family.filter((b) => b === readAs), ...family.filter((b) => b !== readAs)];
}

function displayName(backend: string): string {
  return BACKENDS.find((b) => b.name === backend)?.displayName ?? backend;
}

/** "a, b or c" */
function inWords(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
