import type { Writable } from "node:stream";
import type { CreateElicitationResponse, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { usableAuthMethod } from "./auth.js";
import { AgentChannel } from "./channel.js";
import { AUTH_REQUIRED } from "./errors.js";
import { CLOSE_WAIT_MS, clientCapabilities, closesSessions } from "./capabilities.js";

/** How a prompt turn ended, as the agent answered session/prompt; or that it was stopped before any prompt was sent. */
export type TurnEnd = { stopReason: string } | { error: { code: unknown; message: string } } | { stopped: true };

/** Stopped before the prompt: what was being awaited is abandoned. */
const STOPPED = Symbol("stopped before the prompt");

export interface AcpClientOptions {
  /** The agent's stdin; its stdout comes line by line, as the run's reading parsed it (read). */
  toAgent: Writable;
  cwd: string;
  prompt: string;
  /** Answers one session/request_permission (its params as sent, and its JSON-RPC id), live. */
  answerPermission: (
    params: unknown,
    requestId: unknown,
  ) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /**
   * Answers one elicitation/create (its params as sent, and its JSON-RPC id), live: given, form elicitation is
   * declared (the run offers questions); absent, it is not, and a request of the agent's is "method not found".
   */
  answerQuestion?: (params: unknown, requestId: unknown) => Promise<CreateElicitationResponse | { refused: string }>;
  clientName?: string;
  /**
   * After the session started, before the prompt: may set the session's mode; throwing refuses the
   * run (nothing is prompted, run() rejects).
   */
  beforePrompt?: (initializeResult: unknown, setMode: (modeId: string) => Promise<void>) => Promise<void> | void;
  /** --resume: the session to continue (session/load instead of session/new). */
  resume?: string;
  /** Before session/load is sent, and once it was answered: the agent's replay of the session's history lies between. */
  onLoad?: (phase: "unsupported" | "loading" | "loaded", sessionId: string) => void;
  /** The agent's environment: an `env_var` auth method is used only where its variables are set. */
  env?: NodeJS.ProcessEnv;
  /** The prompt's response (or its error) came: the turn is over, though session/close may still be awaited. */
  onTurnEnd?: () => void;
  /** How long session/close is waited for (CLOSE_WAIT_MS). */
  closeWaitMs?: number;
}

/**
 * A minimal ACP client over an agent's stdio: initialize, session/new in `cwd`, one session/prompt, then
 * session/close where the agent declares it (waited for CLOSE_WAIT_MS at most).
 * The agent's stdout is not read here: the run's one reading hands each parsed line to `read`, which
 * gives the SDK what it must answer or awaits (AgentChannel). Permission requests go to
 * `answerPermission` with their params as sent (never refused by the SDK's own checks, which the
 * translation does not make); any other request of the agent (fs/*, terminal/*, extensions) is
 * answered "method not found", never left waiting. Stopped before the prompt, it prompts nothing.
 */
export class AcpClientRun {
  private sessionId: string | undefined;
  private notify: ((method: string, params: unknown) => Promise<void>) | undefined;
  private cancelAsked = false;
  /** session/prompt was sent: a stop is told the agent (session/cancel). */
  private prompted = false;
  private readonly channel: AgentChannel;
  private stopBeforePrompt: (() => void) | undefined;
  private readonly stoppedBeforePrompt = new Promise<typeof STOPPED>((resolve) => {
    this.stopBeforePrompt = () => resolve(STOPPED);
  });

  constructor(private readonly options: AcpClientOptions) {
    this.channel = new AgentChannel(options.toAgent);
  }

  /** One line of the agent's stdout as the run's reading parsed it: false where it is refused (kept as data, never answered). */
  read(line: Record<string, unknown>): boolean {
    return this.channel.read(line);
  }

  /** A line of the agent's stdout too long to be read, by its start: a request it holds is answered (AgentChannel.overlong). */
  overlong(preview: string): ReturnType<AgentChannel["overlong"]> {
    return this.channel.overlong(preview);
  }

  /** The agent's stdout ended. */
  inputEnded(): void {
    this.channel.end();
  }

  /** Drive the turn to its end: the prompt's response or its error (other failures reject). */
  async run(): Promise<TurnEnd> {
    // Loaded only when an agent is driven: the SDK (with zod) would add ~80 ms and 10 MB to every start-up.
    const { client, PROTOCOL_VERSION, RequestError } = await import("@agentclientprotocol/sdk");
    const o = this.options;
    // Raw params: the request is answered as the translation reads it, whatever the SDK's schema would say of it.
    const app = client({ name: o.clientName ?? "agentstream" }).onRequest("*", ({ method, params, requestId }) => {
      if (method === "session/request_permission") return o.answerPermission(params, requestId);
      if (method === "elicitation/create" && o.answerQuestion)
        return o.answerQuestion(params, requestId).then((answer) => {
          if ("refused" in answer) throw RequestError.invalidParams(undefined, String(answer.refused));
          return answer;
        });
      throw RequestError.methodNotFound(method);
    });
    // Until the prompt is sent, a stop abandons what is awaited: nothing more is asked of the agent.
    const untilStopped = <T>(step: Promise<T>): Promise<T> =>
      Promise.race([step, this.stoppedBeforePrompt]).then((value) => {
        if (value === STOPPED) throw STOPPED;
        return value as T;
      });
    return app
      .connectWith(this.channel.stream, async (agent) => {
        this.notify = (method, params) => agent.notify(method, params);
        const init = await untilStopped(
          agent.request("initialize", {
            protocolVersion: PROTOCOL_VERSION,
            clientCapabilities: clientCapabilities(o.answerQuestion !== undefined),
            clientInfo: { name: o.clientName ?? "agentstream", version: "0" },
          }),
        );
        const newSession = async (): Promise<{ sessionId: string }> => {
          if (o.resume === undefined) return untilStopped(agent.request("session/new", { cwd: o.cwd, mcpServers: [] }));
          if (init.agentCapabilities?.loadSession !== true) {
            o.onLoad?.("unsupported", o.resume);
            throw new Error("the agent cannot load sessions (agentCapabilities.loadSession)");
          }
          o.onLoad?.("loading", o.resume);
          await untilStopped(agent.request("session/load", { sessionId: o.resume, cwd: o.cwd, mcpServers: [] }));
          o.onLoad?.("loaded", o.resume);
          return { sessionId: o.resume };
        };
        const session = await newSession().catch(async (err: unknown) => {
          // authenticate only where the agent demands it, and only with a method that needs no user.
          const method =
            (err as { code?: unknown }).code === AUTH_REQUIRED ? usableAuthMethod(init, o.env ?? {}) : undefined;
          if (method === undefined) throw err;
          await untilStopped(agent.request("authenticate", { methodId: method }));
          return newSession();
        });
        this.sessionId = session.sessionId;
        await untilStopped(
          Promise.resolve(
            o.beforePrompt?.(init, async (modeId) => {
              await agent.request("session/set_mode", { sessionId: session.sessionId, modeId });
            }),
          ),
        );
        if (this.cancelAsked) throw STOPPED;
        this.prompted = true;
        const end: TurnEnd = await agent
          .request("session/prompt", { sessionId: session.sessionId, prompt: [{ type: "text", text: o.prompt }] })
          .then(
            (response) => ({ stopReason: response.stopReason }),
            (err: unknown) => {
              const e = err as { code?: unknown; message?: string };
              return { error: { code: e.code, message: e.message ?? String(err) } };
            },
          );
        o.onTurnEnd?.();
        // The session is closed where the agent declares session/close: bounded, and its answer (or error) is not the run's.
        if (closesSessions(init))
          await this.closeSession(agent.request("session/close", { sessionId: session.sessionId }));
        return end;
      })
      .catch((err: unknown) => {
        if (err === STOPPED) return { stopped: true } as const;
        throw err;
      });
  }

  /**
   * Stop the turn: session/cancel once the prompt was sent (the agent ends it with stopReason "cancelled");
   * before that, nothing more is sent, the prompt least of all.
   */
  cancel(): void {
    if (this.cancelAsked) return;
    this.cancelAsked = true;
    this.stopBeforePrompt?.();
    if (this.prompted) void this.sendCancel();
  }

  /** session/close's answer, or CLOSE_WAIT_MS (closeWaitMs) without one: either way the run goes on to end. */
  private async closeSession(answer: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.closeWaitMs ?? CLOSE_WAIT_MS);
    });
    await Promise.race([answer.catch(() => undefined), waited]);
    clearTimeout(timer);
  }

  private async sendCancel(): Promise<void> {
    await this.notify?.("session/cancel", { sessionId: this.sessionId }).catch(() => {});
  }
}
