// The one answerer of a permission request no rule decides: the library's onPermissionRequest, the
// --approve-with command or a person at the terminal (--approvals ask), at most one per run. Each is given
// the request, answers allow or reject (the callback may leave it undecided: then --approvals auto, else the
// default), and its answer is told as input.answered with its `by`. One answer at a time: a request waits
// its turn, and where too many wait, the next is left to no one (the default: the run ends needs_input).
import type { AnsweredBy } from "../../canonical/events.js";
import type { OptionNaming, Words } from "../../core/errors.js";
import type { PortableRequest } from "../request.js";
import { runApproveCommand, type CommandVerdict } from "./approve-command.js";
import { askPerson } from "./approve-person.js";
import { callerAnswer } from "./permission-answer.js";
import { decided, type PermissionAnswer } from "./permission-policy.js";

/** How long --approve-with's command or a person has to answer one request, unless told (--answer-timeout). */
export const DEFAULT_ANSWER_TIMEOUT_MS = 60_000;

/**
 * The most requests waiting for the answerer besides the one it is answering: an agent that floods requests
 * gets no more than this many commands (one at a time) or questions before the rest are left to the default.
 */
export const MAX_WAITING_ANSWERS = 16;

/** The requests as the stream showed them, kept for the answerer until it takes them (at most this many). */
const MAX_SHOWN_KEPT = 64;

/** Answers one request no rule decided; undefined leaves it to --approvals auto or the default. */
export type LiveAnswerer = (requestId: string, params: unknown) => Promise<PermissionAnswer | undefined>;

export interface AnswererLink {
  /** A warning on the run's note path (redacted, escaped and cut there). */
  warn(text: Words): void;
  /** Aborted when the run stops: a command is killed, a question taken back. */
  stop: AbortSignal;
}

/** The run's answerer, where it has one, and what it must be told of the stream (each request as shown). */
export function liveAnswerer(
  request: PortableRequest,
  link: AnswererLink,
): { answer: LiveAnswerer; requestShown(requestId: string, line: string): void } | undefined {
  const timeoutMs = request.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
  const shown = new ShownRequests();
  const outside = (by: "command" | "person", run: (line: string) => Promise<CommandVerdict>): LiveAnswerer =>
    oneAtATime(by, link, async (requestId, params) => {
      const line = await shown.line(requestId, timeoutMs, link.stop);
      const verdict =
        line === undefined
          ? { decision: "reject" as const, problem: `the request was not shown within ${timeoutMs / 1000} s` }
          : await run(line);
      if (verdict.problem !== undefined && !link.stop.aborted)
        link.warn((name) => `${answererName(by, name)} ${verdict.problem}: request ${requestId} is rejected`);
      return decided(params, verdict.decision, by);
    });
  const { approveWith, approvals, onPermissionRequest } = request;
  let answer: LiveAnswerer | undefined;
  if (onPermissionRequest !== undefined)
    answer = oneAtATime("callback", link, (requestId, params) =>
      callerAnswer(onPermissionRequest, requestId, params, (text) => link.warn(text)),
    );
  else if (approveWith !== undefined)
    answer = outside("command", (line) => runApproveCommand(approveWith, line, { timeoutMs, stop: link.stop }));
  else if (approvals === "ask") answer = outside("person", (line) => askPerson(line, { timeoutMs, stop: link.stop }));
  return answer === undefined ? undefined : { answer, requestShown: (id, line) => shown.add(id, line) };
}

/** The answerer as a warning names it, each side its way: "--approve-with", "--approvals ask". */
function answererName(by: AnsweredBy, name: OptionNaming): string {
  return by === "command" ? name("approveWith") : `${name("approvals")} ask`;
}

/**
 * One answer at a time, in the order asked. A request that finds MAX_WAITING_ANSWERS waiting is answered at
 * once by no one (the default: the turn is stopped, the run ends needs_input), said once.
 */
function oneAtATime(by: AnsweredBy, link: AnswererLink, answer: LiveAnswerer): LiveAnswerer {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let said = false;
  return (requestId, params) => {
    if (waiting > MAX_WAITING_ANSWERS) {
      if (!said)
        link.warn(
          () =>
            `more than ${MAX_WAITING_ANSWERS} permission requests wait for an answer (${by}): request ${requestId} and any more are left unanswered (the run ends needs_input)`,
        );
      said = true;
      return Promise.resolve(decided(params, "reject", "default"));
    }
    waiting++;
    const turn = tail.then(() => (link.stop.aborted ? undefined : answer(requestId, params)));
    const settled = turn.finally(() => waiting--);
    tail = settled.catch(() => undefined);
    return settled;
  };
}

/** The requests as the stream showed them, until the answerer takes them; the oldest dropped past the bound. */
class ShownRequests {
  private readonly lines = new Map<string, string>();
  private readonly waiters = new Map<string, (line: string) => void>();

  add(requestId: string, line: string): void {
    const waiter = this.waiters.get(requestId);
    if (waiter) {
      this.waiters.delete(requestId);
      return waiter(line);
    }
    this.lines.delete(requestId);
    this.lines.set(requestId, line);
    if (this.lines.size > MAX_SHOWN_KEPT) this.lines.delete(this.lines.keys().next().value!);
  }

  /** The request's line once shown; undefined after `timeoutMs` or the stop. */
  line(requestId: string, timeoutMs: number, stop: AbortSignal): Promise<string | undefined> {
    const line = this.lines.get(requestId);
    if (line !== undefined) {
      this.lines.delete(requestId);
      return Promise.resolve(line);
    }
    return new Promise((resolve) => {
      const finish = (value: string | undefined): void => {
        clearTimeout(timer);
        stop.removeEventListener("abort", onStop);
        this.waiters.delete(requestId);
        resolve(value);
      };
      const onStop = (): void => finish(undefined);
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      stop.addEventListener("abort", onStop, { once: true });
      this.waiters.set(requestId, finish);
    });
  }
}
