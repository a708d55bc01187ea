import { Readable, Writable } from "node:stream";
import type { RequestPermissionResponse } from "@agentclientprotocol/sdk";

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
  /** Answers one session/request_permission (its params as sent), live. */
  answerPermission: (params: unknown) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  clientName?: string;
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
    const app = client({ name: o.clientName ?? "agentstream" }).onRequest("session/request_permission", ({ params }) =>
      o.answerPermission(params),
    );
    return app.connectWith(stream, async (agent) => {
      this.notify = (method, params) => agent.notify(method, params);
      await agent.request("initialize", {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: o.clientName ?? "agentstream", version: "0" },
      });
      const session = await agent.request("session/new", { cwd: o.cwd, mcpServers: [] });
      this.sessionId = session.sessionId;
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
