import { StringDecoder } from "node:string_decoder";
import type { ChalkInstance } from "chalk";
import type { AnsweredBy, CanonicalEvent, EventOf } from "../canonical/events.js";
import { capLine } from "../core/native-line.js";
import { Activity } from "./activity.js";
import { stderrChalk } from "./colour.js";
import { showControls } from "../core/control-chars.js";
import { errorText } from "./error-text.js";
import { actionText, attemptOf, firstLine, formatDuration, shellQuote, toolLine } from "./format.js";
import { DETAIL, sessionsNote, summaryLines } from "./stderr-summary.js";
import { Spinner } from "./spinner.js";

export type Verbosity = "quiet" | "normal" | "verbose";

export interface HumanRendererOptions {
  stream: NodeJS.WriteStream;
  verbosity: Verbosity;
  backend: string;
  env?: NodeJS.ProcessEnv;
  /**
   * stdout writes the live stream to a terminal too: no spinner then (as curl
   * shows no progress meter when its output is the terminal), so that nothing
   * is ever drawn into, or cleared out of, those lines.
   */
  stdoutIsTerminal?: boolean;
  /**
   * Hides secrets in text that is wrapped or cut before it is written (the
   * stream hides them per write, but not in a secret split across lines).
   */
  redact?: (text: string) => string;
}

/** Who answered a request, as its line says it ("rule shell(git *)" is said with its rule). */
const ANSWERER: Record<Exclude<AnsweredBy, "rule" | "default">, string> = {
  approvals: "--approvals auto",
  callback: "by the caller",
  command: "by command",
  person: "by person",
};

// The most requests waiting for their answer before the oldest is said as needing input (a flood holds no more).
const MAX_ASKED = 64;

// A backend line longer than this is cut when shown (the stderr tail keeps its own bound).
const MAX_SHOWN_LINE = 2000;
// What is held of a line before it is shown: its secrets are hidden before the cut, so a secret
// across the cut is hidden whole rather than shown in part (a secret is far shorter than this).
const HELD_LINE = MAX_SHOWN_LINE + 64 * 1024;

/**
 * Human progress on stderr. On a terminal: a spinner naming what the agent is
 * doing (unless the JSONL is on the terminal too), a line per finished tool
 * call and a final summary. Elsewhere (CI, a
 * file): the same lines, prefixed, with no spinner and no colour unless forced.
 * --quiet keeps only what went wrong; --verbose adds the backend's own stderr.
 */
export class HumanRenderer {
  private readonly c: ChalkInstance;
  private readonly spinner: Spinner | undefined;
  private readonly prefix: string;
  private readonly activity = new Activity();
  private backendPartialLine = "";
  /**
   * Requests not said yet: an ACP agent's is answered live (its input.answered follows, maybe after other
   * requests), so each is said with its answer; any other event first means no one answered them, and they are
   * said as needing input. At most MAX_ASKED wait: past that, the oldest is said as needing input.
   */
  private asked: EventOf<"input.requested">[] = [];
  /** The spinner was stopped for a request: the next event starts it again. */
  private paused = false;
  // A character split across two reads of the backend's stderr is decoded whole.
  private readonly backendDecoder = new StringDecoder("utf8");

  constructor(private readonly options: HumanRendererOptions) {
    this.c = stderrChalk(options.env);
    const interactive = options.stream.isTTY === true;
    this.prefix = interactive ? "" : "[agentstream] ";
    // A terminal that reports no width (a bare pty) would make ora's line counting loop forever.
    if (
      interactive &&
      (options.stream.columns ?? 0) > 0 &&
      options.verbosity !== "quiet" &&
      options.stdoutIsTerminal !== true
    ) {
      this.spinner = new Spinner(options.stream, this.c.level > 0);
    }
    // A closed stderr must not crash the run.
    options.stream.on("error", () => {});
  }

  event(e: CanonicalEvent): void {
    this.activity.update(e);
    this.showActivity(this.activity.describe());
    const normal = this.options.verbosity !== "quiet";
    const verbose = this.options.verbosity === "verbose";
    // A call shown as it is asked for (an ACP request for a call never announced) is part of the asking.
    if (e.type !== "input.requested" && e.type !== "input.answered" && e.type !== "tool.started") this.sayAsked();
    // A request may be a question to the person at this terminal (--approvals ask): no frame is drawn over it.
    if (e.type === "input.requested") this.spinner?.stop();
    else if (this.paused) this.spinner?.start();
    this.paused = e.type === "input.requested" && this.spinner !== undefined;
    switch (e.type) {
      case "run.started":
        if (verbose && e.command)
          this.line(this.c.dim(`running ${shellQuote(e.command)}${e.cwd ? ` in ${showControls(e.cwd)}` : ""}`));
        this.spinner?.start();
        break;
      case "tool.completed":
        if (normal) this.line(toolLine(e, this.c));
        break;
      case "retry.started":
        if (normal)
          this.line(
            `${this.c.yellow("↻")} retry ${attemptOf(e)} in ${formatDuration(e.delay_ms)}: ${this.firstLine(errorText(e.error).lines[0] ?? "")}`,
          );
        break;
      case "input.requested":
        if (normal) this.asked.push(e);
        if (this.asked.length > MAX_ASKED) this.sayAsked(this.asked.length - MAX_ASKED);
        break;
      case "input.answered":
        if (normal) this.line(this.answerLine(e));
        break;
      case "error":
        if (verbose) this.line(`${this.c.red("!")} ${showControls(e.code)}: ${this.firstLine(e.message)}`);
        break;
      case "subagent.started":
        if (verbose) this.line(this.c.dim(`▸ sub-agent ${showControls(e.name)} started`));
        break;
      case "subagent.completed":
        if (verbose) this.line(this.c.dim(`▸ sub-agent ${showControls(e.name)} finished`));
        break;
      case "run.finished":
        this.finished(e);
        break;
    }
  }

  /** The backend's own stderr: shown, prefixed, with --verbose only. */
  backendStderr(chunk: Buffer): void {
    if (this.options.verbosity !== "verbose") return;
    const lines = (this.backendPartialLine + this.backendDecoder.write(chunk)).split("\n");
    this.backendPartialLine = capLine(lines.pop() ?? "", HELD_LINE);
    // One write for the whole chunk: a flood of short lines is not a flood of writes.
    if (lines.length > 0) this.write(lines.map((line) => `${this.backendLine(line)}\n`).join(""));
  }

  /** Whether the backend's stderr, as shown, waits on stderr's reader: it is not read meanwhile. */
  get needsDrain(): boolean {
    return this.options.verbosity === "verbose" && this.options.stream.writableNeedDrain;
  }

  /** Resolves once stderr has taken what is buffered (or is gone). */
  drained(): Promise<void> {
    if (!this.needsDrain) return Promise.resolve();
    const { stream } = this.options;
    return new Promise((resolve) => {
      const done = (): void => {
        for (const event of ["drain", "close", "error"]) stream.off(event, done);
        resolve();
      };
      for (const event of ["drain", "close", "error"]) stream.on(event, done);
    });
  }

  /** What the run waits for when it is not the agent (the backend's exit, a stop). */
  status(text: string): void {
    this.activity.set(text);
    if (this.spinner) this.showActivity(text);
    else if (this.options.verbosity === "verbose") this.line(this.c.dim(showControls(text)));
  }

  // note, message and hint quote paths, arguments and native text: their control characters are shown.

  /** A one-line note, not shown with --quiet. */
  note(text: string): void {
    if (this.options.verbosity !== "quiet") this.line(showControls(text));
  }

  /** One of agentstream's own messages ("agentstream: ..."), always shown. */
  message(text: string): void {
    this.line(`agentstream: ${showControls(text)}`, "");
  }

  /** A one-line hint after a failure, always shown. */
  hint(text: string): void {
    this.line(`${this.c.yellow("hint:")} ${showControls(text)}`);
  }

  /** Stop the spinner and show what is left of the backend's stderr. */
  close(): void {
    this.sayAsked();
    this.spinner?.stop();
    const rest = this.backendPartialLine + this.backendDecoder.end();
    if (rest) this.line(this.backendLine(rest), "");
    this.backendPartialLine = "";
  }

  private showActivity(activity: string): void {
    if (!this.spinner) return;
    // The activity names native tools and agents.
    this.spinner.setText(`${this.options.backend} · ${showControls(this.redact(activity))}`);
  }

  private finished(f: EventOf<"run.finished">): void {
    this.close();
    if (this.options.verbosity === "quiet" && f.status === "succeeded") return;
    const error = f.error ? { ...f.error, message: this.redact(f.error.message) } : undefined;
    for (const line of summaryLines({ ...f, error }, this.c, this.width())) this.line(line);
    const sessions = sessionsNote(f);
    if (sessions) this.message(sessions);
    if (f.resume) this.line(this.c.dim(`${DETAIL}resume with: ${showControls(f.resume.hint)}`));
    const failed = f.status === "failed" || f.status === "timed_out";
    // --verbose has shown the backend's stderr already.
    if (failed && f.stderr_tail && this.options.verbosity !== "verbose") {
      const n = f.stderr_tail.length;
      this.line(this.c.dim(`${DETAIL}${this.options.backend} stderr (last ${n === 1 ? "line" : `${n} lines`}):`));
      for (const line of f.stderr_tail) this.line(this.c.dim(`${DETAIL}│ ${showControls(line)}`));
    }
  }

  /** What the summary wraps to: the terminal's width, else a width that reads well in a log. */
  private width(): number {
    const columns = this.options.stream.isTTY === true ? (this.options.stream.columns ?? 0) : 0;
    return Math.max(40, (columns > 0 ? columns : 100) - this.prefix.length);
  }

  private redact(text: string): string {
    return this.options.redact ? this.options.redact(text) : text;
  }

  /** A native message's first line, its secrets hidden before it is cut (a cut secret would not be found). */
  private firstLine(text: string, max?: number): string {
    return firstLine(this.redact(text), max);
  }

  /** The first `count` requests waiting (all by default), said as needing input. */
  private sayAsked(count = this.asked.length): void {
    for (const asked of this.asked.splice(0, count))
      this.line(`${this.c.yellow("?")} needs input: ${this.describeRequest(asked)}`);
  }

  /** "✔ allowed execute: touch x (rule shell(touch ))", "? needs input: approve execute: no rule allows it". */
  private answerLine(e: EventOf<"input.answered">): string {
    const at = this.asked.findIndex((asked) => answers(e, asked));
    const asked = at < 0 ? undefined : this.asked.splice(at, 1)[0]!;
    if (e.action !== undefined) return this.questionAnswerLine(e, asked);
    const action = asked?.actions?.[0];
    const what = action ? actionText(action, (text) => this.redact(text)) : `request ${showControls(e.request_id)}`;
    if (e.by === "default")
      return `${this.c.yellow("?")} needs input: approve ${what} ${this.c.dim("(no one decided: no rule, no answer)")}`;
    const why = e.by === "rule" ? `rule ${e.rule ?? "?"}` : ANSWERER[e.by];
    const said = `${e.decision === "allow" ? "allowed" : "rejected"} ${what} ${this.c.dim(`(${showControls(why)})`)}`;
    return e.decision === "allow" ? `${this.c.green("✔")} ${said}` : `${this.c.red("✖")} ${said}`;
  }

  /** "✔ answered: Which colour? (by command)", "? needs input: answer Which colour? (no answer: cancelled)". */
  private questionAnswerLine(e: EventOf<"input.answered">, asked: EventOf<"input.requested"> | undefined): string {
    const what = asked ? this.questionText(asked) : `question ${showControls(e.request_id)}`;
    const by = e.by === "rule" || e.by === "default" ? e.by : ANSWERER[e.by];
    if (e.action === "accept") return `${this.c.green("✔")} answered ${what} ${this.c.dim(`(${showControls(by)})`)}`;
    if (e.action === "decline") return `${this.c.red("✖")} declined ${what} ${this.c.dim(`(${showControls(by)})`)}`;
    const who = e.by === "default" ? "no one can answer" : `no answer: ${by}`;
    return `${this.c.yellow("?")} needs input: answer ${what} ${this.c.dim(`(${showControls(who)})`)}`;
  }

  /** A question as one line: its message, else its first field's question. */
  private questionText(e: EventOf<"input.requested">): string {
    return this.firstLine(e.message ?? e.questions?.[0]?.question ?? "a question", 120);
  }

  private describeRequest(e: EventOf<"input.requested">): string {
    if (e.kind === "approval") {
      const actions = e.actions ?? [];
      if (actions.length === 1) return `approve ${actionText(actions[0]!, (text) => this.redact(text))}`;
      return `approve ${showControls(actions.map((a) => a.name).join(", ")) || "an action"}`;
    }
    return this.questionText(e);
  }

  /** One line of the backend's stderr as shown: its secrets hidden, then cut, then its controls shown. */
  private backendLine(line: string): string {
    const hidden = this.redact(capLine(line.replace(/\r$/, ""), HELD_LINE));
    return this.c.dim(`[${this.options.backend}] ${showControls(capLine(hidden, MAX_SHOWN_LINE))}`);
  }

  private line(text: string, prefix = this.prefix): void {
    this.write(`${prefix}${text}\n`);
  }

  private write(text: string): void {
    if (this.spinner) this.spinner.print(text);
    else this.options.stream.write(text);
  }
}

/** The answer is to this request: its id and its call's (an agent may ask twice under one id). */
function answers(answer: EventOf<"input.answered">, asked: EventOf<"input.requested">): boolean {
  return answer.request_id === asked.request_id && answer.tool_call_id === asked.tool_call_id;
}
