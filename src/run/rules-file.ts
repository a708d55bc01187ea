import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A rules file a backend reads its permissions from (Gemini CLI's policy): named when the run is
 * planned, written only when it starts (a run planned and never started leaves nothing behind),
 * gone after `remove`.
 */
export interface RulesFile {
  path: string;
  write(): void;
  remove(): void;
}

export function planRulesFile(text: string, extension: string): RulesFile {
  const path = join(tmpdir(), `agentstream-rules-${randomUUID()}.${extension}`);
  return {
    path,
    // Only this user reads it; `wx`: never over a file that is there.
    write: () => writeFileSync(path, text, { mode: 0o600, flag: "wx" }),
    remove: () => rmSync(path, { force: true }),
  };
}
