// Help text read from the backend registry, so a new backend shows up in it by itself.
import { PORTABLE_TOOLS, type CommonFlag, type NativeMeans } from "../backends/definition.js";
import { BACKENDS } from "../backends/registry.js";

/** "EvoScientist, Atomic, pi" */
export const BACKEND_DISPLAY_NAMES = BACKENDS.map((b) => b.displayName).join(", ");

/** The --bin default: each backend's variable, then its names on PATH. */
export function binHelp(): string {
  const variables = BACKENDS.map((b) => `$${b.binEnvVar}`).join(" / ");
  const names = BACKENDS.map((b) => b.executableNames.join("|")).join(", ");
  return `the backend executable (default: ${variables}, else ${names} on PATH)`;
}

/** A common flag's help: which backends take it, and as what. */
export function flagHelp(flag: CommonFlag, what: string, byDefault: string): string {
  const takers = BACKENDS.filter((b) => b.flags[flag] !== undefined);
  const only = takers.length === 1 ? " only" : "";
  const passedAs = [...new Set(takers.map((b) => b.flags[flag]))].join(" / ");
  return `${takers.map((b) => b.displayName).join(", ")}${only}: ${what}, passed as ${passedAs} (default: ${byDefault})`;
}

/** The backends that have one kind of permission rule natively, for run --help. */
export function permissionHelp(kind: "allow" | "deny" | "resume", what: string): string {
  const takers = BACKENDS.filter((b) => !("lacks" in (b.permissions[kind] as NativeMeans)));
  const portable = kind === "resume" ? "" : `; portable names: ${PORTABLE_TOOLS.join(", ")}`;
  const who =
    takers.length === BACKENDS.length
      ? "every backend"
      : `${takers.map((b) => b.displayName).join(", ")}; refused elsewhere`;
  return `${what} (${who}${portable})`;
}

/** The backends that have an --approvals mode. */
export function approvalsHelp(): string {
  const modes = (mode: "never" | "auto") =>
    `${mode}: ${BACKENDS.filter((b) => b.permissions.approvals[mode] !== undefined)
      .map((b) => b.displayName)
      .join(", ")}`;
  return `never: a call that needs a human ends the run needs_input (exit 3); auto: the backend's own auto-approval (${modes("never")}; ${modes("auto")}; refused elsewhere)`;
}
