import { EXIT_USAGE, exitCodeFor } from "./exit-codes.js";

/** An error that carries the exit code agentstream must end with. */
export class AgentstreamError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** agentstream was called wrongly (bad flags, unreadable input file): exit 2, nothing spawned. */
export class UsageError extends AgentstreamError {
  constructor(message: string, hint?: string) {
    super(message, EXIT_USAGE, hint);
  }
}

/** A stop signal before anything started (while the prompt was read): exit 130 or 143, nothing on stdout. */
export class StoppedBeforeStart extends AgentstreamError {
  constructor(signal: "SIGINT" | "SIGTERM" | "SIGHUP", while_: string) {
    super(
      `${signal} while ${while_}: nothing was started`,
      exitCodeFor("cancelled", undefined, signal === "SIGINT" ? "SIGINT" : "SIGTERM"),
    );
  }
}
