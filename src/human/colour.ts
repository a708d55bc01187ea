import { Chalk, supportsColorStderr, type ChalkInstance } from "chalk";

/**
 * Colours for stderr. FORCE_COLOR wins (chalk's own detection reads it), then
 * NO_COLOR (https://no-color.org: set and not empty), then whether stderr is a
 * colour terminal.
 */
export function stderrChalk(env: NodeJS.ProcessEnv = process.env): ChalkInstance {
  const detected = supportsColorStderr ? supportsColorStderr.level : 0;
  const noColor = !("FORCE_COLOR" in env) && env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return new Chalk({ level: noColor ? 0 : detected });
}
