import type { StopWatch } from "../run/stop-signals.js";
import { planRun, type RunSpec } from "./agent-run.js";
import { part, type RunRequest } from "./request.js";

/**
 * A run's request made ready to start, the same for the CLI and the library: its agent planned (options
 * checked, executable found, argv built; the prompt read once the options are known good), and its
 * translation, limits and times as the request holds them.
 */
export async function prepareRun(
  request: RunRequest,
  readPrompt: (backend: string) => string | Promise<string>,
  stops?: StopWatch,
): Promise<RunSpec> {
  const limits = part("run", request, "limits");
  const plan = await planRun({ ...part("run", request, "agent"), ...limits }, readPrompt, {
    graceMs: request.graceMs,
    promptInStream: request.promptInStream,
    ...(stops ? { stops } : {}),
  });
  return { plan, translation: part("run", request, "translation"), limits, timing: part("run", request, "timing") };
}
