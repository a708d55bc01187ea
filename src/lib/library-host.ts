// Where the library's warnings go: a process warning, the one way a library run speaks unasked.
import type { Redactor } from "../core/redactor.js";

/** A process warning, printed on stderr: it may quote the agent, so it is shown as the CLI shows it. */
export function processWarning(redactor: Redactor): (text: string) => void {
  return (text) => void process.emitWarning(redactor.shown(text.trimEnd()), "AgentstreamWarning");
}
