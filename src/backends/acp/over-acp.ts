// An agent driven over the Agent Client Protocol under its own name: Qwen Code (`--backend qwen`), and
// Gemini CLI, OpenCode and Copilot CLI with `--transport acp`; Claude Code and Codex with `--transport acp`
// through their adapters (`mode.adapter`: the program started, found as the agent's own executable is). Everything but its name, executable and
// ACP arguments is the generic ACP backend's: the same driver (permission requests answered live by the
// rules), translator and limits; every event's `backend` is the name the user gave.
import { acp } from "./index.js";
import type { AcpMode, BackendDefinition, Transport } from "../definition.js";
import { OptionError } from "../../core/errors.js";

/** Who the agent is: what `--backend` names and how its executable is found. */
type AgentIdentity<Name extends string> = Pick<
  BackendDefinition<Name>,
  "name" | "displayName" | "executableNames" | "binEnvVar" | "install"
>;

/** An agent driven over ACP, started with `mode.args`, its model (where it takes one) and --backend-arg. */
export function acpAgent<Name extends string>(
  agent: AgentIdentity<Name>,
  mode: AcpMode,
): BackendDefinition<Name, "acp"> {
  const { claims: _claims, ...generic } = acp;
  const { name, displayName } = agent;
  // The program started: the agent itself, or the adapter that speaks ACP for it.
  const { executableNames, binEnvVar, install } = mode.adapter ?? agent;
  const flag = mode.model;
  const model = typeof flag === "string" ? { via: flag, reaches: (model: string) => ({ args: [flag, model] }) } : flag;
  const { provider } = mode;
  return {
    ...generic,
    name,
    displayName,
    executableNames,
    binEnvVar,
    install,
    transport: "acp",
    supports: {
      ...acp.supports,
      ...(model === undefined ? {} : { model }),
      ...(provider === undefined ? {} : { provider }),
    },
    acpMode: mode,
    layout: (frame, placed) => [...mode.args, ...placed.flags(), ...frame.backendArgs],
  };
}

/** The backend as `--transport` asks it driven: itself (native, the default), or over ACP where it speaks it. */
export function withTransport(
  backend: BackendDefinition,
  transport: Transport | undefined,
  all: readonly BackendDefinition[],
): BackendDefinition {
  if (transport === undefined || transport === "native" || backend.protocol === "acp") return backend;
  if (backend.acpMode === undefined)
    throw new OptionError(
      (name) => `${name("transport")} acp: ${backend.displayName} does not speak the Agent Client Protocol`,
      (name) =>
        `${all
          .filter((b) => b.acpMode !== undefined && b.protocol !== "acp")
          .map((b) => b.displayName)
          .join(", ")} speak it; any other agent that does runs with ${name("backend")} acp`,
    );
  return acpAgent(backend, backend.acpMode);
}
