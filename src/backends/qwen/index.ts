import { acpAgent } from "../acp/over-acp.js";

/**
 * Qwen Code: `qwen --acp`, driven over the Agent Client Protocol (docs/protocols/qwen.md says why not its
 * stream-json). Its executable is a JavaScript file run by the `node` first on the run's PATH, which must
 * be Node >= 22.
 */
export const qwen = acpAgent(
  {
    name: "qwen",
    displayName: "Qwen Code",
    executableNames: ["qwen"],
    binEnvVar: "AGENTSTREAM_QWEN_BIN",
    install: "npm install -g @qwen-code/qwen-code (needs Node >= 22)",
  },
  { args: ["--acp"], model: "--model" },
);
