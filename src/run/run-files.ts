import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileErrorReason } from "../core/file-errors.js";
import { tempFolderError, usableTempFolder } from "../core/temp-folder.js";

/**
 * The files made for one run (Copilot CLI's usage file, Gemini CLI's policy), all in one private folder
 * of the temporary folder: named when the run is planned (the temporary folder checked then, before
 * anything starts), made when it starts (a run planned and never started leaves nothing behind), and
 * removed whole when it ends, whatever the backend left at those paths (a FIFO, a folder, a link).
 */
export class RunFiles {
  private readonly dir: string;
  private made = false;

  /** Throws a UsageError (exit 2) naming TMPDIR when the temporary folder cannot hold the run's files. */
  constructor() {
    this.dir = join(usableTempFolder(), `agentstream-run-${randomUUID()}`);
  }

  /** An absolute path in the run's folder. */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** Makes the folder, only this user's: a UsageError naming TMPDIR when it cannot be made. */
  make(): void {
    try {
      // Fails when something is there already: never a folder someone else made.
      mkdirSync(this.dir, { mode: 0o700 });
    } catch (err) {
      throw tempFolderError(`cannot make a folder there: ${fileErrorReason(err as NodeJS.ErrnoException)}`);
    }
    this.made = true;
  }

  /**
   * Removes the folder and all in it. Never throws (it runs after run.finished is written, whose exit code
   * nothing may contradict): what went wrong is returned, to be said as a warning.
   */
  remove(): string | undefined {
    if (!this.made) return undefined;
    try {
      // Links in it are removed, never followed.
      rmSync(this.dir, { recursive: true, force: true });
      return undefined;
    } catch (err) {
      return `cannot remove the run's temporary folder ${this.dir}: ${fileErrorReason(err as NodeJS.ErrnoException)}`;
    }
  }
}
