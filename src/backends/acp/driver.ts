import type { RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { Driver, DriverLink } from "../../run/driver.js";
import { clip } from "../../core/clip.js";
import type { Worded } from "../../core/errors.js";
import type { DriverRequest } from "../request.js";
import { AcpClientRun, type AcpClientOptions } from "./client.js";
import { objectOrEmpty } from "../../core/fields.js";
import { agentInfoOf, quirksOf } from "./agents.js";
import { OptionError } from "../../core/errors.js";
import {
  answeredEvent,
  loadEvent,
  refusedEvent,
  requestIdOf,
  stoppedEvent,
  turnHaltedEvent,
  turnStoppedEvent,
} from "../../policy/permission-answer.js";
import { acpPolicy, ruleAnswer, unruledAnswer, type AcpPolicy } from "../../policy/permission-policy.js";
import { noTerminal } from "../../policy/approve-person.js";
import { liveAnswerer } from "../../policy/live-answerer.js";
import { readForm } from "../../policy/elicitation.js";
import { questionAnsweredEvent } from "../../policy/question-events.js";

/** pi-acp with no rule: it runs as it is, but not in silence (docs/protocols/acp.md "Permissions"). */
const NEVER_ASKS_UNGOVERNED =
  (agent = "the agent"): Worded =>
  (name) =>
    `${agent} never asks before a tool call: every call it makes runs unasked (${name("approvals")} auto says so and quiets this; or run it in its own sandbox)`;

/** The answer to a request still waiting for its answerer when the run is stopped. */
const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };
const STOPPED = Symbol("stopped while the answerer decided");

/**
 * One run of an ACP agent: initialize, session/new in `cwd`, one session/prompt; each
 * session/request_permission answered by a deny rule, else an allow rule, else the run's answerer (the
 * library's callback, --approve-with's command, a person with --approvals ask: src/policy/live-answerer.ts),
 * else --approvals auto, else the default; the answer is told the translation (input.answered). A request no one
 * decided (or whose decision no option offered can carry) ends the turn (session/cancel, the request answered
 * cancelled as the protocol asks): the translator then ends the run needs_input with the call pending; one a
 * rule, the callback, the command or a person rejected is an answer, and the turn goes on. Once the turn is
 * over, the agent's stdin is closed, which ends it. Its stdout is read by the run's one reading, which hands
 * each line to `read` before translating it. Stopped before the prompt, nothing is prompted; stopped while the
 * answerer is deciding, the request is answered cancelled at once (a command killed, a question taken back).
 */
export function acpDriver(request: DriverRequest, prompt: string, cwd: string, env: NodeJS.ProcessEnv): Driver {
  const run = plannedRun(request, prompt, cwd, env);
  return {
    attach: (link) => attach(run, link),
    read: (event) => run.attached?.client.read(event) ?? true,
    overlong: (preview) => overlong(run, preview),
    inputEnded: () => run.attached?.client.inputEnded(),
    requestShown: (requestId, line) => run.attached?.answerer?.requestShown(requestId, line),
    stop: () => stop(run),
  };
}

/** One ACP run as its driver keeps it: what was asked, fixed once planned, and what it learns as the run goes. */
interface AcpRun {
  readonly request: DriverRequest;
  readonly prompt: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The rules as given, in portable names, each mapped to the ACP kind it matches here, once. */
  readonly policy: AcpPolicy;
  /** Rules were given: an agent that would not ask is refused them, never run ungoverned in silence. */
  readonly governed: boolean;
  /**
   * Whether a request no rule allows must be refused (every policy but --approvals auto): an agent that
   * asks only in some mode is set to it then, even with no rule given, so that the default holds.
   */
  readonly mustAsk: boolean;
  /** Questions are offered (form elicitation declared) where someone can answer them, or where asked to be left pending. */
  readonly offersQuestions: boolean;
  /** Aborted when the run stops, when the turn ends and when it is stopped for a request no one decided: the answerer stops asking. */
  readonly stopping: AbortController;
  /** Requests waiting for the answerer: a stop answers them cancelled at once. */
  readonly waiting: Set<() => void>;
  /** Once the agent was spawned: the run's link, its answerer (where it has one) and the ACP client. */
  attached?: { link: DriverLink; answerer: ReturnType<typeof liveAnswerer>; client: AcpClientRun };
  /** The run was asked to stop (before or after the agent was spawned). */
  stopAsked: boolean;
  /** The prompt's response came (or the turn failed): a request after it asks no answerer (no command runs for it). */
  turnOver: boolean;
}

/** The run as planned; a rule no ACP kind matches, or --approvals ask with no terminal, is refused before anything starts. */
function plannedRun(request: DriverRequest, prompt: string, cwd: string, env: NodeJS.ProcessEnv): AcpRun {
  const { allowTools = [], denyTools = [], approvals } = request;
  // Checked while the run is planned: a rule no ACP kind matches is refused before anything starts.
  const policy = acpPolicy(allowTools, denyTools, approvals, cwd);
  const governed =
    allowTools.length + denyTools.length > 0 ||
    approvals === "never" ||
    approvals === "ask" ||
    request.onPermissionRequest !== undefined ||
    request.approveWith !== undefined;
  const questions = request.questions ?? "answer";
  const hasAnswerer =
    request.onPermissionRequest !== undefined || request.approveWith !== undefined || approvals === "ask";
  if (approvals === "ask") refuseWithoutTerminal();
  return {
    request,
    prompt,
    cwd,
    env,
    policy,
    governed,
    mustAsk: governed || approvals !== "auto",
    offersQuestions: questions === "pending" || (questions === "answer" && hasAnswerer),
    stopping: new AbortController(),
    waiting: new Set(),
    stopAsked: false,
    turnOver: false,
  };
}

/** A person is asked on the terminal: where there is none, refused before anything starts (exit 2). */
function refuseWithoutTerminal(): void {
  const terminalMissing = noTerminal();
  if (terminalMissing !== undefined)
    throw new OptionError(
      (name) => `${name("approvals")} ask needs a terminal to ask a person on: ${terminalMissing}`,
      (name) =>
        `answer from a script with ${name("approveWith")} CMD, or decide with ${name("allowTools")}/${name("denyTools")}`,
    );
}

/** The agent was spawned: the client talks to it, and the conversation is over however its turn ends. */
function attach(run: AcpRun, link: DriverLink): void {
  const answerer = liveAnswerer(run.request, { warn: link.warn, redact: link.redact, stop: run.stopping.signal });
  if (run.stopAsked) link.tell(turnStoppedEvent());
  // The agent gone while we wrote: its exit says how the run ended.
  link.stdin.on("error", () => {});
  const client = new AcpClientRun(clientOptions(run, link));
  run.attached = { link, answerer, client };
  if (run.stopAsked) client.cancel();
  // However the turn ended (its response, its error, the agent gone, a stop before the prompt), the conversation is over.
  void client
    .run()
    .catch(() => undefined)
    .finally(() => {
      run.turnOver = true;
      run.stopping.abort();
      link.stdin.end();
    });
}

function clientOptions(run: AcpRun, link: DriverLink): AcpClientOptions {
  return {
    toAgent: link.stdin,
    cwd: run.cwd,
    env: run.env,
    prompt: run.prompt,
    onTurnEnd: () => {
      run.turnOver = true;
    },
    ...resumeOptions(run.request.resume, link),
    beforePrompt: (init, setMode) => beforePrompt(run, link, init, setMode),
    answerPermission: (params, id) => answerPermission(run, link, params, id),
    ...(run.offersQuestions ? { answerQuestion: (params, id) => answerQuestion(run, link, params, id) } : {}),
  };
}

/** A session to resume: session/load, each phase told the translation; refused where the agent cannot load a session (said in words: the stream is the library's too). */
function resumeOptions(resume: string | undefined, link: DriverLink): Pick<AcpClientOptions, "resume" | "onLoad"> {
  if (resume === undefined) return {};
  return {
    resume,
    onLoad: (phase, id) =>
      link.tell(
        phase === "unsupported"
          ? refusedEvent(
              `session ${id} cannot be resumed: the agent cannot load a session (its initialize response does not say agentCapabilities.loadSession)`,
            )
          : loadEvent(phase, id),
      ),
  };
}

/**
 * Before the prompt: an agent that asks only in some mode is set to it where it must ask; one that never asks
 * runs as it is where nothing governs it (said, unless --approvals auto), and is refused the rules otherwise.
 */
async function beforePrompt(
  run: AcpRun,
  link: DriverLink,
  init: unknown,
  setMode: (modeId: string) => Promise<void>,
): Promise<void> {
  const agent = agentInfoOf(objectOrEmpty(init));
  const asks = quirksOf(agent).asks;
  if (typeof asks === "object") return run.mustAsk ? setMode(asks.inMode) : undefined;
  if (asks === "always") return;
  if (!run.governed) {
    if (run.mustAsk) link.warn(NEVER_ASKS_UNGOVERNED(agent?.name));
    return;
  }
  // Said in the stream, which the CLI and the library share: in words, not in either side's option names.
  const refusal = `${agent?.name ?? "the agent"} never asks before a tool call: no tool rule, approval mode, approving command or permission callback can govern it (run it without them, or in its own sandbox)`;
  link.tell(refusedEvent(refusal));
  throw new Error(refusal);
}

/** One session/request_permission: a rule, else the answerer (while the turn goes on), else --approvals; told the translation. */
async function answerPermission(
  run: AcpRun,
  link: DriverLink,
  params: unknown,
  id: unknown,
): Promise<RequestPermissionResponse> {
  const requestId = requestIdOf(id) ?? "request";
  const ruled = ruleAnswer(run.policy, params);
  const answerer = run.attached?.answerer;
  const asked =
    ruled === undefined && answerer && !run.turnOver
      ? await untilStopped(run, answerer.answer(requestId, params))
      : undefined;
  // Stopped while the answerer decided: the turn is being cancelled, and so is the request.
  if (asked === STOPPED) {
    link.tell(stoppedEvent(requestId, params));
    return CANCELLED;
  }
  const answer = ruled ?? asked ?? unruledAnswer(run.policy, params);
  link.tell(answeredEvent(requestId, params, answer));
  if (answer.needsInput && !run.stopping.signal.aborted) stopUndecided(run, link, requestId);
  return answer.response;
}

type QuestionResponse = Awaited<ReturnType<NonNullable<AcpClientOptions["answerQuestion"]>>>;

/** One elicitation/create (a form): read bounded, else refused; the answerer's answer, else cancelled (left to no one); told the translation. */
async function answerQuestion(run: AcpRun, link: DriverLink, params: unknown, id: unknown): Promise<QuestionResponse> {
  const requestId = requestIdOf(id) ?? "question";
  const reading = readForm(params);
  if ("refused" in reading) {
    link.warn(() => `the agent's question ${requestId} is ${reading.refused}: it is refused, asked of no one`);
    return { refused: `agentstream does not take this elicitation: ${reading.refused}` };
  }
  const answerer = run.attached?.answerer;
  const asked =
    answerer && !run.turnOver ? await untilStopped(run, answerer.question(requestId, params, reading.form)) : undefined;
  // Stopped while the answerer was asked: the question stays open, the stop ends the run.
  if (asked === STOPPED) return { action: "cancel" as const };
  const answer = asked ?? { action: "cancel" as const, by: "default" as const };
  link.tell(questionAnsweredEvent(requestId, params, answer));
  if (answer.action === "cancel" && !run.stopping.signal.aborted) stopUndecided(run, link, requestId);
  return answer.action === "accept"
    ? { action: "accept" as const, content: answer.content }
    : { action: answer.action };
}

/**
 * No one decided: the turn is stopped, and what waits for the answerer is left to no one too. The agent has the
 * grace period to answer the prompt (cancelled); one that does not is stopped, never waited for.
 */
function stopUndecided(run: AcpRun, link: DriverLink, requestId: string): void {
  run.stopping.abort();
  run.attached?.client.cancel();
  setTimeout(() => {
    if (run.turnOver) return;
    link.warn(
      () =>
        `the agent did not end its turn within the grace period after session/cancel (request ${requestId} was left to no one): it is stopped`,
    );
    link.tell(turnHaltedEvent());
    link.halt();
  }, link.graceMs).unref();
}

/** The answerer's answer, unless the run is stopped first (then STOPPED: answered cancelled, told no one). */
function untilStopped<T>(run: AcpRun, answer: Promise<T>): Promise<T | typeof STOPPED> {
  let cancel = (): void => undefined;
  const stopped = new Promise<typeof STOPPED>((resolve) => {
    cancel = () => resolve(STOPPED);
  });
  run.waiting.add(cancel);
  if (run.stopAsked) cancel();
  return Promise.race([answer, stopped]).finally(() => run.waiting.delete(cancel));
}

/** A request too long to be read was answered with an error by the client: said, with the way to have it read. */
function overlong(run: AcpRun, preview: string): void {
  const attached = run.attached;
  const request = attached?.client.overlong(preview);
  if (attached === undefined || request === undefined) return;
  const what = `${JSON.stringify(clip(request.method, 80))} request ${JSON.stringify(clip(String(request.id), 80))}`;
  attached.link.warn(
    (name) =>
      `the agent's ${what} is longer than ${name("maxLineBytes")} and could not be read: it is answered with an error (-32600), never allowed (raise ${name("maxLineBytes")} to have such a request read and decided)`,
  );
}

/** The run is stopped: told once, the turn cancelled its protocol's way, what waits for the answerer answered cancelled. */
function stop(run: AcpRun): void {
  if (!run.stopAsked) run.attached?.link.tell(turnStoppedEvent());
  run.stopAsked = true;
  run.stopping.abort();
  run.attached?.client.cancel();
  for (const cancel of run.waiting) cancel();
}
