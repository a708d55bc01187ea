import type { CanonicalEvent } from "../canonical/events.js";
import { showControls } from "../core/control-chars.js";
import { describeErrors, loadValidator } from "../schema/validator.js";

/** A bug in agentstream, found while running: said on stderr, and the run goes on. */
export function reportBug(message: string, stderr: NodeJS.WritableStream = process.stderr): void {
  stderr.write(`agentstream: ${showControls(message)}\n`);
}

/**
 * Checks each event against the schema (when enabled). A failure is a bug in
 * agentstream, never the backend's doing: it is said on stderr, and the line kept.
 */
export async function eventChecker(enabled: boolean): Promise<(event: CanonicalEvent) => void> {
  if (!enabled) return () => {};
  const validate = await loadValidator();
  return (event) => {
    if (!validate(event)) {
      reportBug(
        `bug: event seq ${event.seq} (${event.type}) fails the schema: ${describeErrors(validate.errors, event)}`,
      );
    }
  };
}
