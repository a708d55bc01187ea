import { checkName, checkPassable } from "../core/argv-value.js";
import type { BackendDefinition, BackendRequest } from "./definition.js";
import { portableRequest, refuseLacking } from "./portable-options.js";

/**
 * Refuse the options the chosen backend lacks of model, provider, workdir, auto mode and the limits, and
 * values no backend can be given (a model that would be read as a flag, a NUL byte), before anything is
 * spawned. (The rules and --resume are checked with their names: src/backends/permissions.ts.)
 */
export function checkRequestFits(
  backend: BackendDefinition,
  request: Omit<BackendRequest, "prompt" | "promptTerminator">,
): void {
  if (request.model !== undefined) checkName("model", request.model);
  if (request.provider !== undefined) checkName("provider", request.provider);
  if (request.workdir !== undefined) checkPassable("workdir", request.workdir);
  for (const [i, arg] of request.backendArgs.entries()) checkPassable("backendArgs", arg, `(argument ${i + 1})`);
  refuseLacking(backend, portableRequest(request), [
    "model",
    "provider",
    "workdir",
    "noAutoMode",
    "maxTurns",
    "maxTokens",
    "maxCostUsd",
  ]);
}
