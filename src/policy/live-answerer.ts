// The one answerer of a permission request no rule decides: the library's onPermissionRequest, the
// --approve-with command or a person at the terminal (--approvals ask), at most one per run. Each is given
// the request, answers allow or reject (the callback may leave it undecided: then --approvals auto, else the
// default), and its answer is told as input.answered with its `by`. One answer at a time: a request waits
// its turn, and where too many wait, the next is left to no one (the default: the run ends needs_input).
import type { AnsweredBy } from "../canonical/events.js";
import type { Words } from "../core/errors.js";
import { runApproveCommand, type CommandVerdict } from "./approve-command.js";
import { askPerson } from "./approve-person.js";
import { callerAnswer } from "./permission-answer.js";
import { decided, type PermissionAnswer } from "./permission-policy.js";
import type { ApprovalsMode, PermissionCallback } from "./permission-request.js";
import type { Form } from "./elicitation.js";
import { answererName, askQuestion, type QuestionAsker } from "./question-ask.js";

/**
 * The most requests waiting for the answerer besides the one it is answering: an agent that floods requests
 * gets no more than this many commands (one at a time) or questions before the rest are left to the default.
 */
export const MAX_WAITING_ANSWERS = 16;

/**
 * What is kept of the requests as the stream showed them, until the answerer takes them: a request is shown
 * (translated) before its handler runs, but a read of many lines shows them all first; past this many bytes the
 * oldest are dropped, and a request whose line was dropped is left to no one (the default).
 */
const MAX_SHOWN_BYTES = 4 * 1024 * 1024;

/** Answers one request no rule decided; undefined leaves it to --approvals auto or the default. */
export type LiveAnswerer = (requestId: string, params: unknown) => Promise<PermissionAnswer | undefined>;

/** What of a run's request chooses its answerer and its time (the backends' PortableRequest carries them). */
export interface AnswererOptions {
  approvals?: ApprovalsMode;
  approveWith?: string;
  onPermissionRequest?: PermissionCallback;
  answerTimeoutMs: number;
}

export interface AnswererLink {
  /** A warning on the run's note path (redacted, escaped and cut there). */
  warn(text: Words): void;
  /** The agent's text as the stream shows it (secrets hidden): a choice's title, which the stream's line does not hold. */
  redact(text: string): string;
  /** Aborted when the run stops: a command is killed, a question taken back. */
  stop: AbortSignal;
}

/** The run's answerer, where it has one, and what it must be told of the stream (each request as shown). */
export function liveAnswerer(
  request: AnswererOptions,
  link: AnswererLink,
): { answer: LiveAnswerer; question: QuestionAsker; requestShown(requestId: string, line: string): void } | undefined {
  const timeoutMs = request.answerTimeoutMs;
  const shown = new ShownRequests();
  // Permission requests and questions wait in one line: one command, one question at the terminal at a time.
  const inLine = oneAtATime(link);
  // The request's line is taken when it is asked (its handler runs after it was shown), its answer in its turn.
  const noOne = (params: unknown) => () => decided(params, "reject", "default");
  const outside = (by: "command" | "person", run: (line: string) => Promise<CommandVerdict>): LiveAnswerer => {
    const inTurn = (requestId: string, params: unknown, line: string) =>
      inLine(by, requestId, noOne(params), async () => {
        const verdict = await run(line);
        // Stopped meanwhile (the run, or the turn for a request no one decided): no one decided this one either.
        if (link.stop.aborted) return undefined;
        if (verdict.problem !== undefined)
          link.warn((name) => `${answererName(by, name)} ${verdict.problem}: request ${requestId} is rejected`);
        return decided(params, verdict.decision, by);
      });
    return (requestId, params) => {
      const line = shown.take(requestId);
      if (line !== undefined) return inTurn(requestId, params, line);
      link.warn(
        () =>
          `permission request ${requestId} came among too many at once to be kept for its answer: it is left to no one`,
      );
      return Promise.resolve(undefined);
    };
  };
  const { approveWith, approvals, onPermissionRequest } = request;
  let answer: LiveAnswerer | undefined;
  let by: AnsweredBy | undefined;
  if (onPermissionRequest !== undefined) {
    by = "callback";
    answer = (requestId, params) =>
      inLine("callback", requestId, noOne(params), () =>
        callerAnswer(onPermissionRequest, requestId, params, (text) => link.warn(text)),
      );
  } else if (approveWith !== undefined) {
    by = "command";
    answer = outside("command", (line) => runApproveCommand(approveWith, line, { timeoutMs, stop: link.stop }));
  } else if (approvals === "ask") {
    by = "person";
    answer = outside("person", (line) => askPerson(line, { timeoutMs, stop: link.stop }));
  }
  if (answer === undefined || by === undefined) return undefined;
  const answeredBy = by;
  const question: QuestionAsker = (requestId, params, form: Form) => {
    // The callback is given the form itself; a command or a person the question as the stream showed it.
    const line = answeredBy === "callback" ? "" : shown.take(requestId);
    if (line === undefined) {
      link.warn(
        () =>
          `question ${requestId} came among too many requests at once to be kept for its answer: it is left to no one`,
      );
      return Promise.resolve(undefined);
    }
    return inLine(
      answeredBy,
      requestId,
      () => undefined,
      () => askQuestion({ by: answeredBy, request, link, timeoutMs }, requestId, params, form, line),
    );
  };
  return { answer, question, requestShown: (id, line) => shown.add(id, line) };
}

/**
 * One answer at a time, in the order asked. A request that finds MAX_WAITING_ANSWERS waiting is answered at
 * once by no one (`overflow`, the default: the turn is stopped, the run ends needs_input), said once.
 */
function oneAtATime(
  link: AnswererLink,
): <T>(
  by: AnsweredBy,
  requestId: string,
  overflow: () => T,
  answer: () => Promise<T | undefined>,
) => Promise<T | undefined> {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let said = false;
  return (by, requestId, overflow, answer) => {
    if (waiting > MAX_WAITING_ANSWERS) {
      if (!said)
        link.warn(
          () =>
            `more than ${MAX_WAITING_ANSWERS} permission requests wait for an answer (${by}): request ${requestId} and any more are left unanswered (the run ends needs_input)`,
        );
      said = true;
      return Promise.resolve(overflow());
    }
    waiting++;
    const turn = tail.then(() => (link.stop.aborted ? undefined : answer()));
    const settled = turn.finally(() => waiting--);
    tail = settled.catch(() => undefined);
    return settled;
  };
}

/**
 * The requests as the stream showed them, until the answerer takes them; the oldest dropped past MAX_SHOWN_BYTES.
 * Several under one id (an agent may reuse one) are each kept, and taken in the order shown, as they are asked.
 */
class ShownRequests {
  /** The lines not taken yet, by their request's id, each id's in the order shown. */
  private readonly byId = new Map<string, Shown[]>();
  /** Every line in the order shown, from `head` on: a taken one stays until it reaches the front, never at it. */
  private order: Shown[] = [];
  private head = 0;
  private bytes = 0;

  add(requestId: string, line: string): void {
    const shown: Shown = { id: requestId, line, taken: false };
    this.order.push(shown);
    const same = this.byId.get(requestId);
    if (same) same.push(shown);
    else this.byId.set(requestId, [shown]);
    this.bytes += line.length;
    // The newest is kept, whatever its size: its handler comes next.
    // The front is never a taken line (remove() moves past those): it is the oldest kept.
    while (this.bytes > MAX_SHOWN_BYTES && this.order[this.head] !== shown) this.remove(this.order[this.head]!);
  }

  /** The request's line, once: the first shown under its id (undefined where it was never shown, or dropped). */
  take(requestId: string): string | undefined {
    const shown = this.byId.get(requestId)?.[0];
    if (shown === undefined) return undefined;
    this.remove(shown);
    return shown.line;
  }

  /** A line no longer kept: out of its id's list (it is that list's first), its bytes freed. */
  private remove(shown: Shown): void {
    shown.taken = true;
    this.bytes -= shown.line.length;
    const same = this.byId.get(shown.id)!;
    same.shift();
    if (same.length === 0) this.byId.delete(shown.id);
    while (this.head < this.order.length && this.order[this.head]!.taken) this.advance();
  }

  private advance(): void {
    this.head++;
    // What lies before the head is dropped once it is most of the array.
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}

interface Shown {
  id: string;
  line: string;
  taken: boolean;
}
