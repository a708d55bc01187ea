// docs/backends.md's table of the backends, made from the registry (src/backends/registry.ts):
// what `run` starts for each, where it looks for it, when it is done and how it is stopped.
// test/docs/docs-drift.test.ts checks the committed table; AGENTSTREAM_WRITE_DOCS=1 writes it anew.
import type { BackendDefinition } from "../../src/backends/definition.js";

export const START = "<!-- backends: generated from src/backends/registry.ts; do not edit by hand -->";
export const END = "<!-- backends: end -->";

const code = (text: string) => `\`${text}\``;

/** The table, one row per backend in the registry's order. */
export function renderBackendTable(backends: readonly BackendDefinition[]): string {
  const rows = backends.map((b) =>
    [
      b.displayName,
      code(b.name),
      b.executableNames.map(code).join(", "),
      code(b.binEnvVar),
      [...b.terminalTypes].map(code).join(", "),
      b.stopSignal,
      code(b.install),
    ].join(" | "),
  );
  return [
    "| backend | `--backend`, `--from` | executable on `PATH` (`--bin` else) | variable naming it | final events (`--linger`) | stopped with | install |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/** `text` with its generated block made anew from `backends`. */
export function withBackendTable(text: string, backends: readonly BackendDefinition[]): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error("no backend table markers");
  return `${text.slice(0, start + START.length)}\n${renderBackendTable(backends)}\n${text.slice(end)}`;
}
