// A value the user names that agentstream puts on a backend's command line on
// its own (a model, a provider, a session id, a rule's tool name): checked once
// here for every backend, the CLI's run and the library's run() alike.
import { OptionError } from "./errors.js";

// C0 controls (NUL included), DEL and C1 controls: no name holds one, and a NUL cannot be passed at all.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Half a surrogate pair: it would reach the backend as U+FFFD, another name than the one given.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** How much of a refused value is quoted back. */
const SHOWN_CHARS = 80;

const HOLDS_NUL = "holds a NUL byte, which no program can be given as an argument";

/** Why VALUE cannot be one name on a backend's command line, or undefined when it can. */
export function nameProblem(value: string): string | undefined {
  if (value === "") return "is empty";
  // After a flag that takes a value, most parsers read "-x" as the next flag, not as the value.
  if (value.startsWith("-")) return 'starts with "-", so the backend would read it as a flag';
  if (value.includes("\0")) return HOLDS_NUL;
  if (CONTROL.test(value)) return "holds a control character";
  if (LONE_SURROGATE.test(value)) return "is not well-formed Unicode (half a surrogate pair)";
  return undefined;
}

/** VALUE quoted for a message: escaped (no control character reaches a terminal), long ones cut. */
export function quoted(value: string): string {
  const json = JSON.stringify(value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value);
  // JSON leaves DEL and the C1 controls raw; a terminal would act on some of them.
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** An OptionError `OPTION "VALUE": what is wrong` when VALUE cannot be one name on the command line. */
export function checkName(option: string, value: string, hint?: string): void {
  const problem = nameProblem(value);
  if (problem !== undefined)
    throw new OptionError(
      (name) => `${name(option)} ${quoted(value)}: ${problem}`,
      hint === undefined ? undefined : () => hint,
    );
}

/**
 * A UsageError when VALUE (a path, a --backend-arg) cannot be an argument at all: only a NUL byte
 * makes it so. SHOWN is how the message names it (a --backend-arg may hold a secret: not quoted).
 */
export function checkPassable(option: string, value: string, shown = quoted(value)): void {
  if (value.includes("\0")) throw new OptionError((name) => `${name(option)} ${shown}: ${HOLDS_NUL}`);
}
