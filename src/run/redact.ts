import { clip } from "../core/clip.js";
import { showControls } from "../core/control-chars.js";
import { MIN_SECRET_LENGTH, REDACTED, Redactor } from "../core/redactor.js";

// Flags whose value is a secret, matched without leading dashes by their last
// word: --api-key, --openai-token, --client-secret, --password, --key...
// (not --max-tokens, nor --api-key-file, whose value is a path).
const SECRET_FLAGS = /^(?:.*[-_.])?(?:api[-_]?key|key|token|secret|password|passwd|passphrase|credentials?)$/i;
// Environment variables whose value is a secret.
const SECRET_VARIABLES = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL/i;
export { REDACTED };

interface SecretArg {
  /** Where the value is in argv. */
  index: number;
  /** The flag's value. */
  value: string;
  /** `--flag=value` (else `--flag value`). */
  inline: boolean;
}

/** The values of secret flags (`--api-key X`, `--api-key=X`) in argv, up to `--`. */
function secretArgs(argv: readonly string[]): SecretArg[] {
  const found: SecretArg[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // Everything after `--` is the prompt, never a flag.
    if (arg === "--") break;
    const flag = /^--?([^=]+)(=.*)?$/s.exec(arg);
    if (!flag || !SECRET_FLAGS.test(flag[1]!)) continue;
    if (flag[2] !== undefined) found.push({ index: i, value: flag[2].slice(1), inline: true });
    else if (i + 1 < argv.length) found.push({ index: ++i, value: argv[i]!, inline: false });
  }
  return found;
}

/**
 * The backend arguments as run.started shows them: values of secret flags
 * (`--api-key X`, `--api-key=X`) replaced, so a recorded stream does not leak
 * credentials.
 */
export function redactSecrets(argv: readonly string[]): string[] {
  const out = [...argv];
  for (const { index, inline } of secretArgs(argv)) {
    out[index] = inline ? `${argv[index]!.slice(0, argv[index]!.indexOf("="))}=${REDACTED}` : REDACTED;
  }
  return out;
}

/** The values of secret-looking environment variables (OPENAI_API_KEY, GH_TOKEN, DB_PASSWORD...). */
export function secretEnvValues(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && value.length >= MIN_SECRET_LENGTH && SECRET_VARIABLES.test(name))
    .map(([, value]) => value!);
}

/**
 * The redactor of a run, the one it builds: every secret flag value in the backend's arguments and every secret
 * environment value, hidden wherever they appear (the command run.started shows, every event, stderr).
 */
export function runRedactor(backendArgs: readonly string[], env: NodeJS.ProcessEnv): Redactor {
  return new Redactor([...secretArgs(backendArgs).map((arg) => arg.value), ...secretEnvValues(env)]);
}

/** Longest warning said of text the run does not control (a driver's, a library callback's error). */
const MAX_WARNING = 500;

/**
 * A warning that may quote what the run does not control (an error a library callback threw): its
 * secrets hidden, its control characters shown, never sent, and cut, before any path says it (the
 * library's process warning included).
 */
export function shownWarning(text: string, redactor: Redactor): string {
  return clip(showControls(redactor.text(text)), MAX_WARNING);
}
