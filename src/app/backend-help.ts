// Help text read from the backend registry, so a new backend shows up in it by itself.
import { PORTABLE_TOOLS } from "../backends/definition.js";
import { BACKENDS } from "../backends/registry.js";
import type { ApprovalsMode, PortableOption, PortableValues } from "../backends/request.js";
import { reaches, supportOf } from "../backends/support.js";

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
function takers<K extends PortableOption>(
  option: K,
  choice?: PortableValues[K],
): { displayName: string; via: string }[] {
  return BACKENDS.flatMap((b) => {
    const support = supportOf(b.supports, option, choice);
    return support && reaches(support) ? [{ displayName: b.displayName, via: support.via }] : [];
  });
}

/** An option only some backends have: which take it, and as what. */
export function flagHelp(option: PortableOption, what: string, byDefault: string): string {
  const taking = takers(option);
  const only = taking.length === 1 ? " only" : "";
  const passedAs = [...new Set(taking.map((b) => b.via))].join(" / ");
  return `${taking.map((b) => b.displayName).join(", ")}${only}: ${what}, passed as ${passedAs} (default: ${byDefault})`;
}

/** The backends that have one kind of permission rule natively, for run --help. */
export function permissionHelp(option: "allowTools" | "denyTools" | "resume", what: string): string {
  const taking = takers(option);
  const portable = option === "resume" ? "" : `; portable names: ${PORTABLE_TOOLS.join(", ")}`;
  const who =
    taking.length === BACKENDS.length
      ? "every backend"
      : `${taking.map((b) => b.displayName).join(", ")}; refused elsewhere`;
  return `${what} (${who}${portable})`;
}

/** The backends that have an --approvals mode. */
export function approvalsHelp(): string {
  const modes = (mode: ApprovalsMode) =>
    `${mode}: ${takers("approvals", mode)
      .map((b) => b.displayName)
      .join(", ")}`;
  return `never: a call that needs a human ends the run needs_input (exit 3); auto: the backend's own auto-approval; ask: a person at the terminal answers each request no rule decides (${modes("never")}; ${modes("auto")}; ${modes("ask")}; refused elsewhere)`;
}
