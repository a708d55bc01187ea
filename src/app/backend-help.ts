// Help text read from the backend registry, so a new backend shows up in it by itself.
import { BACKENDS } from "../backends/registry.js";
import type { PortableOption } from "../backends/request.js";
import { reaches, supportOf } from "../backends/support.js";
import type { HelpText, Takers } from "../core/option-row.js";

/** "EvoScientist, Atomic, pi" */
export const BACKEND_DISPLAY_NAMES = BACKENDS.map((b) => b.displayName).join(", ");

/** The --bin default: each backend's variable, then its names on PATH; a backend with none needs one of the two. */
export function binHelp(): string {
  const variables = BACKENDS.map((b) => `$${b.binEnvVar}`).join(" / ");
  const named = BACKENDS.filter((b) => b.executableNames.length > 0);
  const names = named.map((b) => b.executableNames.join("|")).join(", ");
  const unnamed = BACKENDS.filter((b) => b.executableNames.length === 0).map((b) => b.name);
  const required = unnamed.length > 0 ? `; required for ${unnamed.join(", ")}, which has no name to look for` : "";
  return `the backend executable (default: ${variables}, else ${names} on PATH${required})`;
}

/** The backends that have an option (a choice of it, for a choice), each with how it reaches them. */
const TAKERS: Takers = Object.assign(
  (option: string, choice?: string) =>
    BACKENDS.flatMap((b) => {
      const support = supportOf(b.supports, option as PortableOption, choice as never);
      return support && reaches(support) ? [{ displayName: b.displayName, via: support.via }] : [];
    }),
  { count: BACKENDS.length },
);

/** An option's --help line, a portable row's made from the backends that take it. */
export function helpText(help: HelpText): string {
  return typeof help === "string" ? help : help(TAKERS);
}
