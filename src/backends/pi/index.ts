import { UsageError } from "../../core/errors.js";
import { JSON_MODE_PROTOCOL } from "../atomic/index.js";
import type { BackendDefinition, ProbeContext } from "../definition.js";
import { piAcceptsPromptTerminator } from "./version.js";
import { ATOMIC_CATALOG } from "../atomic/native-catalog.js";

/** pi: `pi --mode json [--] PROMPT`, Atomic's protocol. */
export const pi: BackendDefinition<"pi", "atomic"> = {
  ...JSON_MODE_PROTOCOL,
  name: "pi",
  displayName: "pi",
  executableNames: ["pi"],
  binEnvVar: "AGENTSTREAM_PI_BIN",
  install: "npm install -g @earendil-works/pi-coding-agent",
  // pi 0.73 has no agent_settled: its run ends at process exit.
  terminalTypes: new Set(["agent_settled"]),
  nativeCatalog: ATOMIC_CATALOG,
  promptTerminator,
};

/**
 * pi before 1.6 has no `--` to end its flags. A prompt that does not start
 * with "-" needs none; one that does is refused on such a pi rather than let it
 * become a flag.
 */
async function promptTerminator(
  executable: string,
  prompt: string,
  { env, graceMs, stops }: ProbeContext,
): Promise<boolean> {
  if (!prompt.startsWith("-")) return false;
  const version = await piAcceptsPromptTerminator(executable, env, graceMs, stops);
  // Stopped meanwhile: the run ends cancelled.
  if (version.accepts || stops.signal) return version.accepts;
  throw new UsageError(
    `pi ${version.version ?? "(version unknown)"} has no "--" to end its flags: a prompt starting with "-" would be read as a flag`,
    "reword the prompt so that it does not start with '-', or use pi 1.6 or later",
  );
}
