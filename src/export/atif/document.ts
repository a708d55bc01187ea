// The parts of an ATIF document (Harbor's RFC 0001, schema ATIF-v1.7) that agentstream writes. Every
// ATIF model refuses unknown keys, so whatever ATIF has no field for goes into an `extra` object.

export const ATIF_SCHEMA_VERSION = "ATIF-v1.7";

export type Extra = Record<string, unknown>;

export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
  extra?: Extra;
}

export interface AtifSubagentRef {
  trajectory_id: string;
}

export interface AtifResult {
  source_call_id?: string;
  content?: string;
  subagent_trajectory_ref?: AtifSubagentRef[];
  extra?: Extra;
}

export interface AtifMetrics {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
  cost_usd?: number;
  extra?: Extra;
}

export interface AtifStep {
  step_id: number;
  timestamp?: string;
  source: "user" | "agent" | "system";
  model_name?: string;
  message: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifResult[] };
  metrics?: AtifMetrics;
  llm_call_count?: number;
  extra?: Extra;
}

export interface AtifAgent {
  name: string;
  version: string;
  model_name?: string;
  extra?: Extra;
}

export interface AtifFinalMetrics {
  total_prompt_tokens?: number;
  total_completion_tokens?: number;
  total_cached_tokens?: number;
  total_cost_usd?: number;
  total_steps: number;
  extra?: Extra;
}

export interface AtifTrajectory {
  schema_version: typeof ATIF_SCHEMA_VERSION;
  /** Always set: ATIF's readers need one (RunDocument says where it comes from). */
  session_id: string;
  trajectory_id: string;
  agent: AtifAgent;
  steps: AtifStep[];
  notes?: string;
  final_metrics?: AtifFinalMetrics;
  extra?: Extra;
  subagent_trajectories?: AtifTrajectory[];
}

/** `extra` when it holds something, else nothing (ATIF takes `{}`, but it says nothing). */
export function someExtra(extra: Extra): Extra | undefined {
  const kept = Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** A document as agentstream writes it, by `export atif` and by `run --atif`: indented JSON and a newline. */
export function atifText(document: AtifTrajectory): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
