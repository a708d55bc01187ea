import { Readable, Writable } from "node:stream";
import type { RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { usableAuthMethod } from "./auth.js";
import { AUTH_REQUIRED } from "./errors.js";

/** How a prompt turn ended, as the agent answered session/prompt. */
export type TurnEnd = { stopReason: string } | { error: { code: unknown; message: string } };

export interface AcpClientOptions {
  /** The agent's stdin and stdout. */
  toAgent: Writable;
  fromAgent: Readable;
  cwd: string;
  prompt: string;
  /** Every byte the agent writes, as written, before the client reads it (for the translator). */
  onOutput: (chunk: Buffer) => void;
  /** Answers one session/request_permission (its params as sent, and its JSON-RPC id), live. */
  answerPermission: (
    params: unknown,
    requestId: unknown,
  ) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
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
}

/**
 * A minimal ACP client over an agent's stdio: initialize, session/new in `cwd`, one session/prompt.
 * Permission requests go to `answerPermission`; any other request of the agent (fs/*, terminal/*,
 * extensions) is answered "method not found" by the SDK, never left waiting. The agent's stdout
 * reaches `onOutput` unchanged, so the translator reads what a recording of it would hold.
 */
export class AcpClientRun {
  private sessionId: string | undefined;
  private notify: ((method: string, params: unknown) => Promise<void>) | undefined;
  private cancelAsked = false;

  constructor(private readonly options: AcpClientOptions) {}

  /** Drive the turn to its end: the prompt's response or its error (other failures reject). */
  async run(): Promise<TurnEnd> {
    // Loaded only when an agent is driven: the SDK (with zod) would add ~80 ms and 10 MB to every start-up.
    const { client, ndJsonStream, PROTOCOL_VERSION } = await import("@agentclientprotocol/sdk");
    const o = this.options;
    const tee = new Readable({ read() {} });
    o.fromAgent.on("data", (chunk: Buffer) => {
      o.onOutput(chunk);
      tee.push(chunk);
    });
    o.fromAgent.on("end", () => tee.push(null));
    const stream = ndJsonStream(
      Writable.toWeb(o.toAgent) as WritableStream<Uint8Array>,
      Readable.toWeb(tee) as ReadableStream<Uint8Array>,
    );
    const app = client({ name: o.clientName ?? "agentstream" }).onRequest(
      "session/request_permission",
      ({ params, requestId }) => o.answerPermission(params, requestId),
    );
    return app.connectWith(stream, async (agent) => {
      this.notify = (method, params) => agent.notify(method, params);
      const init = await agent.request("initialize", {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: o.clientName ?? "agentstream", version: "0" },
      });
      const newSession = async (): Promise<{ sessionId: string }> => {
        if (o.resume === undefined) return agent.request("session/new", { cwd: o.cwd, mcpServers: [] });
        if (init.agentCapabilities?.loadSession !== true) {
          o.onLoad?.("unsupported", o.resume);
          throw new Error("the agent cannot load sessions (agentCapabilities.loadSession)");
        }
        o.onLoad?.("loading", o.resume);
        await agent.request("session/load", { sessionId: o.resume, cwd: o.cwd, mcpServers: [] });
        o.onLoad?.("loaded", o.resume);
        return { sessionId: o.resume };
      };
      const session = await newSession().catch(async (err: unknown) => {
        // authenticate only where the agent demands it, and only with a method that needs no user.
        const method =
          (err as { code?: unknown }).code === AUTH_REQUIRED ? usableAuthMethod(init, o.env ?? {}) : undefined;
        if (method === undefined) throw err;
        await agent.request("authenticate", { methodId: method });
        return newSession();
      });
      this.sessionId = session.sessionId;
      await o.beforePrompt?.(init, async (modeId) => {
        await agent.request("session/set_mode", { sessionId: session.sessionId, modeId });
      });
      if (this.cancelAsked) await this.sendCancel();
      try {
        const response = await agent.request("session/prompt", {
          sessionId: session.sessionId,
          prompt: [{ type: "text", text: o.prompt }],
        });
        return { stopReason: response.stopReason };
      } catch (err) {
        const e = err as { code?: unknown; message?: string };
        return { error: { code: e.code, message: e.message ?? String(err) } };
      }
    });
  }

  /** session/cancel: the agent ends the turn with stopReason "cancelled" (sent once the session exists). */
  cancel(): void {
    if (this.cancelAsked) return;
    this.cancelAsked = true;
    if (this.sessionId !== undefined) void this.sendCancel();
  }

  private async sendCancel(): Promise<void> {
    await this.notify?.("session/cancel", { sessionId: this.sessionId }).catch(() => {});
  }
}
