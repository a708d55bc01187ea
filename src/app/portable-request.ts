// What a run asks of its backend, made from the option table's portable rows alone: every portable row's
// value as the request holds it (a default asks nothing), checked against the backend (what it lacks refused
// once, in the rows' order, then the rules in its own names), then each made what the backend is given by its
// row's transform (the working directory resolved, the schema read). No option is named here: a new portable
// row reaches a backend's `supports` entry through this with nothing added.
import type { ArgvFacet, DriverFacet } from "../backends/definition.js";
import type { PortableContext } from "../backends/portable-rows.js";
import type { Refusable } from "../backends/portable-options.js";
import { fitRequest } from "../backends/request-fits.js";
import type { DriverRequest, PortableRequest } from "../backends/request.js";
import type { OptionTable } from "../core/option-row.js";
import { OPTIONS } from "./options.js";

/** What a backend is asked: the driver's request, and what its `supports` entries are given. */
export interface BackendAsk {
  /** The values as a driver is given them (its rules in portable names: it maps them itself), and its answer timeout. */
  driven: DriverRequest;
  /** The values its `supports` entries are given: its rules in its own names. */
  native: PortableRequest;
}

/**
 * The request to the backend from a run's request: each portable row's value (a default asks nothing, and a
 * value the run supplies, the usage file, is planning's), checked against the backend, then transformed.
 * Throws an OptionError for what the backend lacks and a rule it cannot enforce, before any value is read.
 */
export async function askBackend(
  definition: Refusable & ArgvFacet & DriverFacet,
  request: Readonly<Record<string, unknown>>,
  context: PortableContext,
  table: OptionTable = OPTIONS,
): Promise<BackendAsk> {
  const rows = table.portable.filter((row) => !row.portable.supplied);
  const given: Record<string, unknown> = Object.fromEntries(
    rows.flatMap((row) => {
      const value = request[row.key];
      return value === undefined || value === row.default ? [] : [[row.key, value]];
    }),
  );
  const rules = fitRequest(definition, given, table.portable);
  // Made once the request was checked: a backend's lack of a schema is said before the schema is read.
  for (const row of rows) {
    const transform = row.portable.value;
    if (transform !== undefined && given[row.key] !== undefined)
      given[row.key] = await transform(given[row.key] as never, context as never);
  }
  const answerTimeoutMs = (request.answerTimeoutMs ?? table.row("answerTimeoutMs").default) as number;
  return {
    driven: { ...(given as PortableRequest), answerTimeoutMs },
    native: { ...(given as PortableRequest), ...rules },
  };
}
