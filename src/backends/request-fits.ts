// The one check of a run's request against its backend, before anything starts: the values no backend can
// take, then what this backend lacks (refused once, over the whole request), then the rules in its own names.
import { checkName, checkPassable } from "../core/argv-value.js";
import { nativeRules } from "./permissions.js";
import { refuseLacking, type Asking, type Refusable } from "./portable-options.js";
import type { PortableRequest } from "./request.js";

/** Refuse the values no backend can be given (a model or a rule that would be read as a flag, a NUL byte). */
function checkValues(request: Asking): void {
  const { model, provider, workdir, backendArgs = [], resume } = request as PortableRequest;
  if (model !== undefined) checkName("model", model);
  if (provider !== undefined) checkName("provider", provider);
  if (workdir !== undefined) checkPassable("workdir", workdir);
  for (const [i, arg] of backendArgs.entries()) checkPassable("backendArgs", arg, `(argument ${i + 1})`);
  // Whatever the backend makes of it, a rule is one argument (or a part of one): never a flag.
  for (const option of ["allowTools", "denyTools"] as const)
    for (const rule of (request as PortableRequest)[option] ?? [])
      checkName(option, rule, "give a tool name, such as shell or one that tool.started shows");
  if (resume !== undefined)
    checkName("resume", resume, "give the session id the backend reported (run.finished.resume)");
}

/**
 * Check a request against the backend it is for, or throw an OptionError: the values first, then the first
 * option asked that the backend lacks, then each rule (what options exclude together is the option table's:
 * src/app/request.ts). Returns the
 * rules in the backend's own tool names (what its `supports` entries are given; a driver gets them as asked).
 */
export function fitRequest(
  backend: Refusable,
  request: Asking,
): Required<Pick<PortableRequest, "allowTools" | "denyTools">> {
  checkValues(request);
  refuseLacking(backend, request);
  return nativeRules(backend, request as PortableRequest);
}
