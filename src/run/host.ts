import type { Clock } from "../core/clock.js";
import type { Words } from "../core/errors.js";
import type { Interruption } from "../core/outcome.js";
import type { Drainable } from "./pipe-throttle.js";
import type { EarlyStop } from "./stop-signals.js";

/**
 * What the caller of a run supplies: who the run is, what the user hears, how it may be stopped. The CLI
 * builds one (its renderer, its stop signals), the library another (its caller's callbacks, an
 * AbortSignal); the supervisor and the driver take the parts they use.
 */
export interface RunHost {
  runId: string;
  clock: Clock;
  /** The backend's own stderr, as it arrives. */
  onStderr(chunk: Buffer): void;
  /** Where onStderr shows the backend's stderr: it is paused while that needs draining. */
  stderrShown: Drainable;
  /** What the run is waiting for, when that is not the agent itself. */
  onStatus(text: string): void;
  /**
   * A note for the user (a cost that cannot be known, the ACP driver's word on an agent), in words the host
   * says with its side's names of the options it names; absent: not said (--quiet).
   */
  onNote?(note: Words): void;
  /** Something that went wrong beside the run (its usage file not read, its temporary folder not removed): never its outcome. */
  onWarning(text: string): void;
  /** A translator bug (the event it threw on is kept as backend.event). */
  onTranslatorBug(message: string): void;
  /** Stop on SIGINT/SIGTERM/SIGHUP to this process (the CLI); the library leaves them to its caller. */
  processSignals: boolean;
  /** The CLI's stop signals heard before the spawn: one that came ends the run cancelled; the supervisor takes over from them. */
  earlyStop?: EarlyStop;
  /** Aborting it stops the backend its clean way: the run ends cancelled. */
  abortSignal?: AbortSignal;
}

/** What the supervisor takes of the host. */
export type SupervisorHost = Pick<RunHost, "onStderr" | "stderrShown" | "onStatus"> &
  Partial<Pick<RunHost, "processSignals" | "abortSignal">>;

/**
 * The reason a host aborts its run's AbortSignal with when it stops the run for a reason of its own (a compare's
 * stop signal or spent budget): the run ends as that interruption says (cancelled by the signal, failed budget),
 * not as a plain abort.
 */
export class HostStop {
  private readonly killers = new Set<() => void>();
  private killed = false;

  constructor(readonly interruption: Extract<Interruption, { kind: "signal" | "budget" }>) {}

  /** A second stop signal: what this stop is stopping is killed now, not given its grace period (as `run` does). */
  killNow(): void {
    this.killed = true;
    for (const kill of [...this.killers]) kill();
  }

  /** Hears killNow (at once if it came already) until the returned function is called. */
  onKillNow(kill: () => void): () => void {
    if (this.killed) {
      kill();
      return () => undefined;
    }
    this.killers.add(kill);
    return () => void this.killers.delete(kill);
  }
}
