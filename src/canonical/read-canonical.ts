import { pipeline, type Readable } from "node:stream";
import ndjson from "ndjson";
import type { CanonicalEvent } from "./events.js";

/**
 * Read a canonical stream (agentstream's own output, e.g. a child process's
 * stdout or a saved log) as events. A canonical stream holds nothing but JSON
 * lines, so the first line that is not JSON ends the iteration with an error:
 * ndjson's strict parser is the right tool here, unlike for native streams,
 * where a bad line must become backend.unparsed.
 */
export async function* readCanonicalStream(input: Readable): AsyncGenerator<CanonicalEvent> {
  const parser = ndjson.parse({ strict: true });
  // pipeline forwards an input error to the parser, where the loop below sees it.
  pipeline(input, parser as unknown as NodeJS.WritableStream, () => {});
  for await (const event of parser as unknown as AsyncIterable<CanonicalEvent>) yield event;
}
