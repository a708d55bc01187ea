// Flags whose value is a secret, in any backend's argv (matched without leading dashes).
const SECRET_FLAGS = /^(?:api[-_]?key|.*[-_](?:key|token|secret|password)|token|secret|password)$/i;
export const REDACTED = "[redacted]";

/**
 * The argv as run.started shows it: values of secret flags (`--api-key X`,
 * `--api-key=X`) replaced, so a recorded stream does not leak credentials.
 */
export function redactSecrets(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      // Everything after `--` is the prompt, never a flag.
      out.push(...argv.slice(i));
      break;
    }
    const flag = /^--?([^=]+)(=.*)?$/.exec(arg);
    if (!flag || !SECRET_FLAGS.test(flag[1]!)) {
      out.push(arg);
      continue;
    }
    if (flag[2] !== undefined) {
      out.push(`${arg.slice(0, arg.indexOf("="))}=${REDACTED}`);
    } else {
      out.push(arg);
      if (i + 1 < argv.length) {
        out.push(REDACTED);
        i++;
      }
    }
  }
  return out;
}
