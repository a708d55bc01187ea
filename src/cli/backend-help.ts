// Help text read from the backend registry, so a new backend shows up in it by itself.
import type { CommonFlag } from "../backends/definition.js";
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
