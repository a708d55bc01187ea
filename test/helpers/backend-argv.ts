// A backend request as the backend gets it, built as planRun builds it: from the backend's `supports` entries.
import type { BackendDefinition, BackendRequest } from "../../src/backends/definition.js";
import { reachBackend } from "../../src/backends/native-input.js";
import type { RunFileInput } from "../../src/backends/support.js";

/** The argv (without the executable); a file the options give the backend is placed at `filePath`, if given. */
export function argvOf(backend: BackendDefinition, request: BackendRequest, filePath?: string): string[] {
  return reachBackend(backend, request, {}, filePath === undefined ? undefined : () => filePath).argv(request);
}

/** The variables the options set, over this caller's environment. */
export function envOf(
  backend: BackendDefinition,
  request: Omit<BackendRequest, "prompt" | "promptTerminator">,
  env: NodeJS.ProcessEnv = {},
): Record<string, string> {
  return reachBackend(backend, request, env).env;
}

/** The files the options have run write for the backend. */
export function filesOf(
  backend: BackendDefinition,
  request: Omit<BackendRequest, "prompt" | "promptTerminator">,
): RunFileInput[] {
  const files: RunFileInput[] = [];
  reachBackend(backend, request, {}, (file) => {
    files.push(file);
    return "/run/file";
  });
  return files;
}
