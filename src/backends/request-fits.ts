// The one check of a run's request against its backend, before anything starts: what this backend lacks
// (refused once, over the whole request, in the portable rows' order), then the rules in its own names.
import type { PortableRow } from "../core/option-row.js";
import { nativeRules } from "./permissions.js";
import { refuseLacking, type Asking, type Refusable } from "./portable-options.js";
import { PORTABLE_ROWS } from "./portable-rows.js";
import type { PortableRequest } from "./request.js";

/**
 * Check a request against the backend it is for, or throw an OptionError: the first option asked that the
 * backend lacks, then each rule (what no backend can be given is the rows' `argument`, checked before; what
 * options exclude together is the option table's: src/app/request.ts). Returns the rules in the backend's own
 * tool names (what its `supports` entries are given; a driver gets them as asked).
 */
export function fitRequest(
  backend: Refusable,
  request: Asking,
  rows: readonly PortableRow[] = PORTABLE_ROWS,
): Required<Pick<PortableRequest, "allowTools" | "denyTools">> {
  refuseLacking(backend, request, rows);
  return nativeRules(backend, request as PortableRequest);
}
