import type { RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { Driver, DriverLink } from "../../run/driver.js";
import { clip } from "../../core/clip.js";
import type { Worded } from "../../core/errors.js";
import type { DriverRequest } from "../request.js";
import { AcpClientRun } from "./client.js";
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
} from "./permission-answer.js";
import { acpPolicy, ruleAnswer, unruledAnswer } from "./permission-policy.js";
import { noTerminal } from "./approve-person.js";
import { liveAnswerer } from "./live-answerer.js";

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
 * library's callback, --approve-with's command, a person with --approvals ask: src/backends/acp/live-answerer.ts),
 * else --approvals auto, else the default; the answer is told the translation (input.answered). A request no one
 * decided (or whose decision no option offered can carry) ends the turn (session/cancel, the request answered
 * cancelled as the protocol asks): the translator then ends the run needs_input with the call pending; one a
 * rule, the callback, the command or a person rejected is an answer, and the turn goes on. Once the turn is
 * over, the agent's stdin is closed, which ends it. Its stdout is read by the run's one reading, which hands
 * each line to `read` before translating it. Stopped before the prompt, nothing is prompted; stopped while the
 * answerer is deciding, the request is answered cancelled at once (a command killed, a question taken back).
 */
export function acpDriver(request: DriverRequest, prompt: string, cwd: string, env: NodeJS.ProcessEnv): Driver {
  const { allowTools = [], denyTools = [], approvals, resume } = request;
  // The rules as given, in portable names, each mapped to the ACP kind it matches here, once. Checked while
  // the run is planned: a rule no ACP kind matches is refused before anything starts.
  const policy = acpPolicy(allowTools, denyTools, approvals, cwd);
  // Rules were given: an agent that would not ask is refused them, never run ungoverned in silence.
  const governed =
    allowTools.length + denyTools.length > 0 ||
    approvals === "never" ||
    approvals === "ask" ||
    request.onPermissionRequest !== undefined ||
    request.approveWith !== undefined;
  // A person is asked on the terminal: where there is none, refused before anything starts (exit 2).
  const terminalMissing = approvals === "ask" ? noTerminal() : undefined;
  if (terminalMissing !== undefined)
    throw new OptionError(
      (name) => `${name("approvals")} ask needs a terminal to ask a person on: ${terminalMissing}`,
      (name) =>
        `answer from a script with ${name("approveWith")} CMD, or decide with ${name("allowTools")}/${name("denyTools")}`,
    );
  // Aborted when the run stops, when the turn ends and when it is stopped for a request no one decided: the answerer stops asking.
  const stopping = new AbortController();
  let answerer: ReturnType<typeof liveAnswerer>;
  // Whether a request no rule allows must be refused (every policy but --approvals auto): an agent that
  // asks only in some mode is set to it then, even with no rule given, so that the default holds.
  const mustAsk = governed || approvals !== "auto";
  let client: AcpClientRun | undefined;
  let stopAsked = false;
  /** The prompt's response came (or the turn failed): a request after it asks no answerer (no command runs for it). */
  let turnOver = false;
  let tellStop = (): void => undefined;
  let linkWarn: DriverLink["warn"] = () => undefined;
  /** Requests waiting for the answerer: a stop answers them cancelled at once. */
  const waiting = new Set<() => void>();
  /** The answerer's answer, unless the run is stopped first (then STOPPED: answered cancelled, told no one). */
  const untilStopped = <T>(answer: Promise<T>): Promise<T | typeof STOPPED> => {
    let cancel = (): void => undefined;
    const stopped = new Promise<typeof STOPPED>((resolve) => {
      cancel = () => resolve(STOPPED);
    });
    waiting.add(cancel);
    if (stopAsked) cancel();
    return Promise.race([answer, stopped]).finally(() => waiting.delete(cancel));
  };
  return {
    attach({ stdin, tell, warn, graceMs, halt }) {
      linkWarn = warn;
      answerer = liveAnswerer(request, { warn, stop: stopping.signal });
      tellStop = () => tell(turnStoppedEvent());
      if (stopAsked) tellStop();
      // The agent gone while we wrote: its exit says how the run ended.
      stdin.on("error", () => {});
      const run = new AcpClientRun({
        toAgent: stdin,
        cwd,
        env,
        prompt,
        onTurnEnd: () => {
          turnOver = true;
        },
        ...(resume !== undefined
          ? {
              resume,
              onLoad: (phase, id) =>
                tell(
                  phase === "unsupported"
                    ? refusedEvent(
                        `--resume ${id}: the agent cannot load a session (its initialize response does not say agentCapabilities.loadSession)`,
                      )
                    : loadEvent(phase, id),
                ),
            }
          : {}),
        beforePrompt: async (init, setMode) => {
          const agent = agentInfoOf(objectOrEmpty(init));
          const asks = quirksOf(agent).asks;
          if (typeof asks === "object") return mustAsk ? setMode(asks.inMode) : undefined;
          if (asks === "always") return;
          if (!governed) {
            if (mustAsk) warn(NEVER_ASKS_UNGOVERNED(agent?.name));
            return;
          }
          const refusal = `${agent?.name ?? "the agent"} never asks before a tool call: --allow-tool, --deny-tool, --approvals, --approve-with and onPermissionRequest cannot govern it (run it without them, or in its own sandbox)`;
          tell(refusedEvent(refusal));
          throw new Error(refusal);
        },
        answerPermission: async (params, id) => {
          const requestId = requestIdOf(id) ?? "request";
          const ruled = ruleAnswer(policy, params);
          const asked =
            ruled === undefined && answerer && !turnOver
              ? await untilStopped(answerer.answer(requestId, params))
              : undefined;
          // Stopped while the answerer decided: the turn is being cancelled, and so is the request.
          if (asked === STOPPED) {
            tell(stoppedEvent(requestId, params));
            return CANCELLED;
          }
          const answer = ruled ?? asked ?? unruledAnswer(policy, params);
          tell(answeredEvent(requestId, params, answer));
          // No one decided: the turn is stopped, and what waits for the answerer is left to no one too. The agent
          // has the grace period to answer the prompt (cancelled); one that does not is stopped, never waited for.
          if (answer.needsInput && !stopping.signal.aborted) {
            stopping.abort();
            run.cancel();
            setTimeout(() => {
              if (turnOver) return;
              warn(
                () =>
                  `the agent did not end its turn within the grace period after session/cancel (request ${requestId} was left to no one): it is stopped`,
              );
              tell(turnHaltedEvent());
              halt();
            }, graceMs).unref();
          }
          return answer.response;
        },
      });
      client = run;
      if (stopAsked) run.cancel();
      // However the turn ended (its response, its error, the agent gone, a stop before the prompt), the conversation is over.
      void run
        .run()
        .catch(() => undefined)
        .finally(() => {
          turnOver = true;
          stopping.abort();
          stdin.end();
        });
    },
    read(event) {
      return client?.read(event) ?? true;
    },
    overlong(preview) {
      const request = client?.overlong(preview);
      if (request === undefined) return;
      const what = `${JSON.stringify(clip(request.method, 80))} request ${JSON.stringify(clip(String(request.id), 80))}`;
      linkWarn(
        (name) =>
          `the agent's ${what} is longer than ${name("maxLineBytes")} and could not be read: it is answered with an error (-32600), never allowed (raise ${name("maxLineBytes")} to have such a request read and decided)`,
      );
    },
    inputEnded() {
      client?.inputEnded();
    },
    requestShown(requestId, line) {
      answerer?.requestShown(requestId, line);
    },
    stop() {
      if (!stopAsked) tellStop();
      stopAsked = true;
      stopping.abort();
      client?.cancel();
      for (const cancel of waiting) cancel();
    },
  };
}
