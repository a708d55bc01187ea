// A backend request as the backend gets it, built as planRun builds it: from the backend's `supports` entries.
import { OPTIONS } from "../../src/app/options.js";
import type { BackendDefinition } from "../../src/backends/definition.js";
import { checkArguments } from "../../src/core/option-row.js";
import { reachBackend } from "../../src/backends/native-input.js";
import type { PortableRequest } from "../../src/backends/request.js";
import { fitRequest } from "../../src/backends/request-fits.js";
import type { ArgvFrame, RunFileInput } from "../../src/backends/support.js";

/** A request with its argv frame: what a backend's entries and layout are given for one run. */
export type ArgvRequest = PortableRequest & ArgvFrame;

/** The argv (without the executable); a file the options give the backend is placed at `filePath`, if given. */
export function argvOf(backend: BackendDefinition, request: ArgvRequest, filePath?: string): string[] {
  return reachBackend(backend, request, {}, filePath === undefined ? undefined : () => filePath).argv(request);
}

/** The variables the options set, over this caller's environment. */
export function envOf(
  backend: BackendDefinition,
  request: PortableRequest,
  env: NodeJS.ProcessEnv = {},
): Record<string, string> {
  return reachBackend(backend, request, env).env;
}

/** The files the options have run write for the backend. */
export function filesOf(backend: BackendDefinition, request: PortableRequest): RunFileInput[] {
  const files: RunFileInput[] = [];
  reachBackend(backend, request, {}, (file) => {
    files.push(file);
    return "/run/file";
  });
  return files;
}

/**
 * The request checked against the backend as planRun checks it (its values by their rows' `argument`, then
 * what the backend lacks), its rules in the backend's own names.
 */
export function fitted<R extends PortableRequest>(backend: BackendDefinition, request: R): R {
  checkArguments(OPTIONS.rows, request);
  return { ...request, ...fitRequest(backend, request) };
}
