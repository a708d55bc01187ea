// Flags whose value is a secret, matched without leading dashes by their last
// word: --api-key, --openai-token, --client-secret, --password, --key...
// (not --max-tokens, nor --api-key-file, whose value is a path).
const SECRET_FLAGS = /^(?:.*[-_.])?(?:api[-_]?key|key|token|secret|password|passwd|passphrase|credentials?)$/i;
// Environment variables whose value is a secret.
const SECRET_VARIABLES = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL/i;
// Shorter values ("1", "true") would blank out ordinary words rather than hide anything.
const MIN_SECRET_LENGTH = 6;
export const REDACTED = "[redacted]";

/**
 * The backend arguments as run.started shows them: values of secret flags
 * (`--api-key X`, `--api-key=X`) replaced, so a recorded stream does not leak
 * credentials.
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
    const flag = /^--?([^=]+)(=.*)?$/s.exec(arg);
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

/**
 * The command with the value of every secret-looking environment variable
 * (OPENAI_API_KEY, GH_TOKEN, DB_PASSWORD...) replaced wherever it appears in
 * it: `--header "Authorization: Bearer $OPENAI_API_KEY"` shows no key.
 */
export function redactSecretValues(command: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const secrets = Object.entries(env)
    .filter(([name, value]) => value !== undefined && value.length >= MIN_SECRET_LENGTH && SECRET_VARIABLES.test(name))
    .map(([, value]) => value!)
    // The longest first: a secret that contains another is hidden whole.
    .sort((a, b) => b.length - a.length);
  return command.map((arg) => secrets.reduce((text, secret) => text.split(secret).join(REDACTED), arg));
}
