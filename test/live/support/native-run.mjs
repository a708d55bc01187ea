// Runs one backend directly (no agentstream) on one scenario and keeps its
// native stdout and stderr: the raw material of the recorded fixtures.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CODEX_EXEC_SETTINGS, OPENCODE_TITLE_ARGS, withScenarioHome } from "./backend-home.mjs";
import { claudeOptions } from "./capture-claude.mjs";
import { MODEL_ID } from "./fake-model-server.mjs";
import { SCENARIOS } from "./scenarios.mjs";
import { spawnCollect } from "../../helpers/live/spawn-collect.mjs";

// The signal agentstream stops each backend with: EvoScientist shuts down
// cleanly on SIGINT, pi only on SIGTERM (SIGINT kills it mid-write).
const STOP_SIGNAL = {
  evosci: "SIGINT",
  pi: "SIGTERM",
  gemini: "SIGTERM",
  codex: "SIGTERM",
  opencode: "SIGTERM",
  copilot: "SIGINT",
};
/** The file Copilot CLI writes its token counts to (they are not on its stdout), in the run's home root. */
const COPILOT_USAGE_FILE = "usage.json";
const RUN_LIMIT_MS = 5 * 60_000;

/** The argv agentstream gives the backend, minus the executable (`schema`: what --output-schema adds natively). */
function nativeArgs(backend, prompt, workdir, root, schema = []) {
  if (backend === "claude") {
    const stream = ["-p", "--output-format", "stream-json", "--verbose", "--include-partial-messages"];
    return [...stream, "--forward-subagent-text", "--model", MODEL_ID, ...claudeOptions(), ...schema, "--", prompt];
  }
  if (backend === "copilot") {
    const headless = ["--allow-all-tools", "--no-ask-user", "--no-auto-update"];
    const usage = ["--usage-output-file", join(root, COPILOT_USAGE_FILE)];
    return ["--output-format", "json", ...headless, "--model", MODEL_ID, ...usage, `--prompt=${prompt}`];
  }
  if (backend === "evosci") return ["-p", prompt, "--output-format", "stream-json", "--workdir", workdir];
  if (backend === "gemini") return ["--output-format", "stream-json", "--model", MODEL_ID, `--prompt=${prompt}`];
  if (backend === "codex") {
    const { model, provider, sandbox } = CODEX_EXEC_SETTINGS;
    return [
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--model",
      model,
      "-c",
      `model_provider=${JSON.stringify(provider)}`,
      "--sandbox",
      sandbox,
      ...schema,
      "--",
      prompt,
    ];
  }
  if (backend === "opencode") return ["run", "--format", "json", ...OPENCODE_TITLE_ARGS, "--", ...prompt.split(" ")];
  return ["--mode", "json", prompt];
}

/**
 * Whether the slow scenario's text is streaming: its second tick is on stdout,
 * or, for Codex (which writes a message only whole, at its end), the model
 * request has reached the fake server.
 */
function streaming(backend, stdout, server) {
  // Codex and OpenCode write a text only whole, at its end.
  return backend === "codex" || backend === "opencode"
    ? server.requestsFor("slow").length > 0
    : stdout.includes("tick 2");
}

/**
 * Run `target` (an installed live target) on `scenario`. The slow scenario is
 * stopped with the backend's stop signal once its text is streaming. `outputSchema(home)`, where given, says
 * how the run is given a schema: `{ prompt }` (the prompt path's) or `{ args }` (a native means).
 */
export function runNative(target, scenario, outputSchema) {
  return withScenarioHome(target.backend, scenario, async (home, server) => {
    const given = outputSchema?.(home) ?? {};
    const prompt = given.prompt ?? SCENARIOS[scenario].prompt;
    const args = nativeArgs(target.backend, prompt, home.cwd, home.root, given.args);
    const stopSignal = scenario === "slow" ? STOP_SIGNAL[target.backend] : undefined;
    const result = await spawnCollect(target.executable, args, {
      cwd: home.cwd,
      env: home.env,
      timeoutMs: RUN_LIMIT_MS,
      stopWhen: stopSignal ? (stdout) => streaming(target.backend, stdout, server) : undefined,
      stopSignal,
      pollMs: 100,
      group: true,
    });
    const usageFile = target.backend === "copilot" ? readIfThere(join(home.root, COPILOT_USAGE_FILE)) : undefined;
    return { ...result, args, stopSignal, modelRequests: server.requests.length, usageFile };
  });
}

function readIfThere(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
