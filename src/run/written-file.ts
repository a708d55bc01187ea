import { writeFileSync } from "node:fs";
import type { RunFiles } from "./run-files.js";

/**
 * A file an option gives the backend (Gemini CLI's policy): named in the run's folder when the run is
 * planned, written only when it starts; removed with the run's folder.
 */
export interface WrittenFile {
  path: string;
  write(): void;
}

export function planWrittenFile(name: string, text: string, files: RunFiles): WrittenFile {
  const path = files.path(name);
  return {
    path,
    // Only this user reads it; `wx`: never over a file that is there.
    write: () => writeFileSync(path, text, { mode: 0o600, flag: "wx" }),
  };
}
