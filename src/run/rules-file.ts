import { writeFileSync } from "node:fs";
import type { RunFiles } from "./run-files.js";

/**
 * A rules file a backend reads its permissions from (Gemini CLI's policy): named in the run's folder when
 * the run is planned, written only when it starts; removed with the run's folder.
 */
export interface RulesFile {
  path: string;
  write(): void;
}

export function planRulesFile(text: string, extension: string, files: RunFiles): RulesFile {
  return planRunFile(`rules.${extension}`, text, files);
}

/** A file of the run's folder the backend reads (its rules, the --output-schema of Codex): written when the run starts. */
export function planRunFile(name: string, text: string, files: RunFiles): RulesFile {
  const path = files.path(name);
  return {
    path,
    // Only this user reads it; `wx`: never over a file that is there.
    write: () => writeFileSync(path, text, { mode: 0o600, flag: "wx" }),
  };
}
