import type { Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { acpMessage, type JsonRpcId } from "./message.js";

/**
 * The SDK's message stream over the run's one reading of the agent's stdout. Each line the
 * translation parsed comes here (read) before it is translated; the SDK is handed only what it must
 * answer or is waiting for: the agent's requests, and the responses to the client's own requests.
 * A response to an id the client never sent (or was answered already) and a request under the id of
 * one still unanswered are refused: kept as data by the translation, never seen by the SDK, so that
 * what the client answered and what the stream shows come from one reading, and the SDK never has
 * cause to print anything of its own. Notifications need no answer: only the translation reads them.
 */
export class AgentChannel {
  readonly stream: Stream;
  private controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  private closed = false;
  /** The client's requests still waiting for the agent's response. */
  private readonly sent = new Set<JsonRpcId>();
  /** The agent's requests still waiting for the client's answer. */
  private readonly asked = new Set<JsonRpcId>();

  constructor(toAgent: Writable) {
    const readable = new ReadableStream<AnyMessage>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.closed = true;
      },
    });
    const writable = new WritableStream<AnyMessage>({ write: (message) => this.send(toAgent, message) });
    this.stream = { readable, writable };
  }

  /** One line of the agent's stdout as the run's reading parsed it: false where it is refused (kept as data). */
  read(line: Record<string, unknown>): boolean {
    const message = acpMessage(line);
    if (message === undefined || message.kind === "notification") return true;
    if (message.kind === "request") {
      if (this.asked.has(message.id)) return false;
      this.asked.add(message.id);
    } else if (!this.sent.delete(message.id)) return false;
    this.forward(line);
    return true;
  }

  /** The agent's stdout ended: the SDK reads no more (its requests still waiting are rejected). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.controller?.close();
  }

  private forward(line: Record<string, unknown>): void {
    if (this.closed) return;
    try {
      this.controller?.enqueue(line as AnyMessage);
    } catch {
      // The SDK stopped reading (its connection closed once the turn was over): nothing waits for it.
      this.closed = true;
    }
  }

  /** What the client writes to the agent, one JSON line each, its ids noted first (a response can only follow). */
  private send(toAgent: Writable, message: AnyMessage): Promise<void> {
    const fields = message as Record<string, unknown>;
    const id = fields.id as JsonRpcId;
    if ("id" in fields) {
      if ("method" in fields) this.sent.add(id);
      else this.asked.delete(id);
    }
    return new Promise((resolve, reject) =>
      toAgent.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(err) : resolve())),
    );
  }
}
