// What only an agent that speaks the Agent Client Protocol has: how it is started to speak it
// (`run --transport acp`), and that it is driven over it under a name of its own (Qwen Code).
import type { Reaches } from "../support.js";

/**
 * How an agent is started to speak the Agent Client Protocol (its argv before --backend-arg), and how its model
 * is chosen there: a flag (`--model`), or another means (OpenCode's config variable); none where it has none.
 */
export interface AcpMode {
  args: readonly string[];
  model?: string | Reaches<"model">;
  /** How its model provider is chosen there, where it takes one (Codex's adapter: MODEL_PROVIDER). */
  provider?: Reaches<"provider">;
  /**
   * Where another program speaks ACP for the agent (Claude Code's and Codex's adapters from npm): how that
   * program is found and installed. `--bin` then names the adapter, never the agent.
   */
  adapter?: AcpAdapter;
}

/** An adapter program that drives an agent and speaks ACP for it: how it is found (as a backend's executable is). */
export interface AcpAdapter {
  executableNames: readonly string[];
  binEnvVar: string;
  install: string;
}

/** How a run drives its agent: its own stream (native), or the Agent Client Protocol (acp). */
export const TRANSPORTS = ["native", "acp"] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** The ACP facet of a backend definition: absent on a backend that does not speak ACP. */
export interface AcpFacet {
  /** It also speaks ACP (`run --transport acp`): how it is started to. */
  acpMode?: AcpMode;
  /**
   * It is driven and read over ACP though its name is not `acp` (Qwen Code; `--transport acp`): run.started
   * says so (`transport`), and a stream's content names the `acp` backend, never this one.
   */
  transport?: "acp";
}
