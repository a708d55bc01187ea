// The real agents the ACP live suite (test/live/acp.live.ts) drives with `run --backend acp`: how each is started
// against the fake model server, and what it does that the others do not, as observed here.
import { inject } from "vitest";
import type { AcpLaunch, LiveTarget } from "./live-run.js";
import { MODEL_ID } from "./wire/common.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    acpTargets: LiveTarget[];
  }
}

/** Where an agent differs, as observed against the fake model server. */
export interface AcpAgentFacts {
  /**
   * After a call a rule rejected: the model's answer when the agent asks the model again (Gemini CLI, Claude's adapter), or
   * null when the agent ends the turn at once without an answer.
   */
  answerAfterRejection: string | null;
  /** Whether the rejected call shows as a failed tool.completed (Gemini CLI's simply vanishes: cancelled). */
  rejectionStatus: "failed" | "cancelled";
  /** An agent that never asks before a call (pi has no permission system): rules are refused, exit 2. */
  ungovernable?: boolean;
  /** Whether the agent tells token counts (false: only context fill, so the totals are marked incomplete). */
  usageComplete: boolean;
  /**
   * Model requests of the text scenario its totals leave out: a side request of the agent's own whose tokens it
   * never tells (Qwen Code, Claude's adapter). Default 0.
   */
  untoldRequests?: number;
  /**
   * The error code of a provider's 400 (default provider): pi-acp drops pi's error and ends the turn without a
   * word, so the run fails with nothing that tells the cause (unknown).
   */
  codeOn400?: string;
  /**
   * The error code of a 503 on every attempt (default overloaded): pi-acp tells only pi's retry notices, which do
   * not say what failed, so the run fails retryable (pi retries only what it holds transient) but unknown.
   */
  codeOn503?: string;
  /** Where the run's totals carry a cost: stated by the agent (Claude's adapter), or estimated from the model it names. */
  cost?: "reported" | "estimated";
  /**
   * Text the agent adds to the model's answer in the same message: after it (Claude's adapter: a notice of its
   * own), or before it (Codex's adapter: Codex's warnings, "Warning: Model metadata for `fake-model` not found").
   */
  answerAdds?: "after" | "before";
}

export interface AcpAgent {
  /** The installed target it runs (test/helpers/live/live-targets.mjs). */
  targetId: string;
  /** How run --backend acp starts it, given the installed targets (pi-acp runs the pi pin). */
  launch: (targets: LiveTarget[]) => AcpLaunch;
  facts: AcpAgentFacts;
}

const executableOf = (targets: LiveTarget[], id: string): string => {
  const target = targets.find((t) => t.id === id);
  if (!target) throw new Error(`${id} is not installed (test/live/install.global-setup.ts)`);
  return target.executable;
};

export const ACP_AGENTS: AcpAgent[] = [
  {
    targetId: "gemini-0.61.0",
    // Its default model ("auto") waits about 100 s before its first request here: name one.
    launch: () => ({ home: "gemini", agentArgs: ["--acp", "--model", MODEL_ID] }),
    facts: {
      answerAfterRejection: "I was not allowed to create the file.",
      rejectionStatus: "cancelled",
      usageComplete: true,
    },
  },
  {
    targetId: "qwen-0.24.4",
    launch: () => ({ home: "qwen", agentArgs: ["--acp", "--auth-type", "openai", "--model", MODEL_ID] }),
    facts: { answerAfterRejection: null, rejectionStatus: "failed", usageComplete: true, untoldRequests: 1 },
  },
  {
    targetId: "opencode-1.18.34",
    launch: () => ({ home: "opencode", agentArgs: ["acp"] }),
    // Its title request (the native runs give a title of their own; ACP has no way to) is not in its usage.
    facts: { answerAfterRejection: null, rejectionStatus: "failed", usageComplete: true, untoldRequests: 1 },
  },
  {
    targetId: "copilot-1.0.102",
    launch: () => ({ home: "copilot", agentArgs: ["--acp", "--model", MODEL_ID, "--no-auto-update"] }),
    facts: { answerAfterRejection: null, rejectionStatus: "failed", usageComplete: true },
  },
  {
    targetId: "claude-agent-acp-0.101.0",
    // `--backend claude --transport acp`: --model reaches it as ANTHROPIC_MODEL (the adapter has no flag for it).
    launch: () => ({ home: "claude", agentArgs: [], transport: { backend: "claude", runArgs: ["--model", MODEL_ID] } }),
    // It asks the model again after a rejected call.
    facts: {
      answerAfterRejection: "I was not allowed to create the file.",
      rejectionStatus: "failed",
      usageComplete: true,
      untoldRequests: 1,
      cost: "reported",
      answerAdds: "after",
    },
  },
  {
    targetId: "codex-acp-2.6.0",
    // `--backend codex --transport acp`: the fake provider of the codex home's config.toml (MODEL_PROVIDER), the
    // model in CODEX_CONFIG: one the price table knows (the fake server answers any), so that its cost is estimated.
    launch: () => ({
      home: "codex",
      agentArgs: [],
      transport: { backend: "codex", runArgs: ["--model", "gpt-4o", "--provider", "fake"] },
    }),
    // Its title request (the prompt in it) is not in its usage.
    facts: {
      answerAfterRejection: null,
      rejectionStatus: "failed",
      usageComplete: true,
      untoldRequests: 1,
      cost: "estimated",
      answerAdds: "before",
    },
  },
  {
    targetId: "pi-acp-0.0.34",
    // The pi it runs, and npm offline: it asks the registry for pi's newest version at start.
    launch: (targets) => ({
      home: "pi",
      agentArgs: [],
      env: { PI_ACP_PI_COMMAND: executableOf(targets, "pi-1.6.0"), npm_config_offline: "true" },
    }),
    facts: {
      answerAfterRejection: null,
      rejectionStatus: "failed",
      usageComplete: false,
      ungovernable: true,
      codeOn400: "unknown",
      codeOn503: "unknown",
    },
  },
];

/** The agents whose targets global setup installed (AGENTSTREAM_LIVE_ONLY unset or naming `acp`). */
export function acpAgentsInstalled(): Array<{ agent: AcpAgent; target: LiveTarget; launch: AcpLaunch }> {
  const targets = inject("acpTargets") ?? [];
  return ACP_AGENTS.flatMap((agent) => {
    const target = targets.find((t) => t.id === agent.targetId);
    return target ? [{ agent, target, launch: agent.launch(targets) }] : [];
  });
}
