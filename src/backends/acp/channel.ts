import type { Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { acpMessage, requestOfStart, type JsonRpcId } from "./message.js";

/** JSON-RPC's "Invalid Request": the answer to a request too long to be read. */
const INVALID_REQUEST = -32600;

/**
 * The SDK's message stream over the run's one reading of the agent's stdout. Each line the
 * translation parsed comes here (read) before it is translated; the SDK is handed only what it must
 * answer or is waiting for: the agent's requests, and the responses to the client's own requests.
 * A response to an id the client never sent (or was answered already) is refused: kept as data by the
 * translation, never seen by the SDK, so that what the client answered and what the stream shows come
 * from one reading, and the SDK never has cause to print anything of its own. A request under the id of
 * one still unanswered is a request of its own all the same: it waits until the one before it under that
 * id is answered, then is handed on, so that each is answered once, in the order asked, and no answer
 * can be taken for another's. Notifications need no answer: only the translation reads them.
 */
export class AgentChannel {
  readonly stream: Stream;
  private controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  private closed = false;
  /** The client's requests still waiting for the agent's response. */
  private readonly sent = new Set<JsonRpcId>();
  /**
   * The ids of the agent's requests still waiting for the client's answer, each with the later requests under
   * the same id, waiting for it to be answered before the SDK is handed them.
   */
  private readonly asked = new Map<JsonRpcId, Record<string, unknown>[]>();

  constructor(private readonly toAgent: Writable) {
    const readable = new ReadableStream<AnyMessage>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.closed = true;
      },
    });
    const writable = new WritableStream<AnyMessage>({ write: (message) => this.send(message) });
    this.stream = { readable, writable };
  }

  /** One line of the agent's stdout as the run's reading parsed it: false where it is refused (kept as data). */
  read(line: Record<string, unknown>): boolean {
    const message = acpMessage(line);
    if (message === undefined || message.kind === "notification") return true;
    if (message.kind === "request") {
      const later = this.asked.get(message.id);
      if (later !== undefined) {
        later.push(line);
        return true;
      }
      this.asked.set(message.id, []);
    } else if (!this.sent.delete(message.id)) return false;
    this.forward(line);
    return true;
  }

  /**
   * A line longer than the run's line limit, by its start. A request whose id and method its start shows is
   * answered at once with a JSON-RPC error under that id (never read, it cannot be decided; never left waiting):
   * the request it was, or undefined where the start shows none (nothing can be answered).
   */
  overlong(preview: string): { id: JsonRpcId; method: string } | undefined {
    const request = requestOfStart(preview);
    if (request === undefined || this.closed) return request;
    const message =
      "the request is longer than the client's line limit and was not read (agentstream --max-line-bytes)";
    const error = { jsonrpc: "2.0", id: request.id, error: { code: INVALID_REQUEST, message } };
    this.toAgent.write(`${JSON.stringify(error)}\n`, () => {});
    return request;
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

  /**
   * What the client writes to the agent, one JSON line each, its ids noted first (a response can only follow).
   * An answer written, the next request under its id (if any) is handed on once the answer is on its way.
   */
  private send(message: AnyMessage): Promise<void> {
    const fields = message as Record<string, unknown>;
    const id = fields.id as JsonRpcId;
    let next: Record<string, unknown> | undefined;
    if ("id" in fields) {
      if ("method" in fields) this.sent.add(id);
      else {
        next = this.asked.get(id)?.shift();
        if (next === undefined) this.asked.delete(id);
      }
    }
    const written = new Promise<void>((resolve, reject) =>
      this.toAgent.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(err) : resolve())),
    );
    if (next !== undefined) this.forward(next);
    return written;
  }
}
