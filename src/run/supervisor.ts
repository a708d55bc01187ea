import type { BackendExit } from "../canonical/events.js";
import type { Words } from "../core/errors.js";
import type { Interruption } from "../core/outcome.js";
import { TailBuffer } from "../core/tail-buffer.js";
import type { NativeEvent } from "../core/translator.js";
import { BackendProcess } from "./backend-process.js";
import type { Driver } from "./driver.js";
import { HostStop, type SupervisorHost } from "./host.js";
import type { LaunchSpec } from "./launch-spec.js";
import { PipeThrottle, type Drainable } from "./pipe-throttle.js";
import { onStopSignals, type StopSignal } from "./stop-signals.js";

/** One backend process to supervise, and the parts of the run's host it uses. */
export interface SupervisorOptions extends SupervisorHost {
  spec: LaunchSpec;
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Hides secrets in the stderr tail's lines before they are cut, and in what a driver shows (the run's redactor). */
  redact?: (text: string) => string;
  /** --timeout: stop the backend after this long. */
  timeoutMs?: number;
  /** --linger: how long the backend may keep running after its terminal event (default: as long as it likes). */
  lingerMs?: number;
  graceMs: number;
  /** Where canonical events go: the backend's stdout is paused while it needs draining. */
  writer: OutputSink;
  /** Drives the backend over its stdin and stdout (ACP); absent, it is launched with argv and only read. */
  driver?: Driver;
  onStdout(chunk: Buffer): void;
  /** What the driver said that the backend's stdout does not hold (DriverLink.tell). */
  onDriverEvent?(event: NativeEvent): void;
  /** A word of the driver's own (DriverLink.warn). */
  onDriverWarning?(text: Words): void;
  /** A driven backend's stdout ended: its last line (one with no newline) is read now, before the driver hears of the end. */
  onStdoutEnd?(): void;
}

/** What the backend's output is written to: full while it needs draining, closed once its reader is gone. */
export interface OutputSink extends Drainable {
  readonly closed: boolean;
}

/** How a supervised backend ended: its exit with its stderr tail and why we stopped it, or why it could not start, or that our stdout closed. */
export type SupervisedExit =
  | { kind: "exited"; backendExit: BackendExit; stderrTail: string[]; interruption?: Interruption }
  /** `code`: why spawn() failed (ENOENT, EACCES, E2BIG...), when it says. */
  | { kind: "launch_failed"; message: string; code?: string }
  | { kind: "stdout_closed" };

/**
 * Runs one backend process to its end: feeds its stdout on as it arrives
 * (pausing it while stdout is full), keeps its stderr tail (pausing it while
 * the stderr it is shown on is full), and stops it on
 * --timeout, after --linger, on SIGINT/SIGTERM, or when our reader is gone.
 */
export class RunSupervisor {
  private backend: BackendProcess | undefined;
  private interruption: Interruption | undefined;
  private stopRequested = false;
  private stdoutClosed = false;
  private terminalSeen = false;
  private stdoutThrottle: PipeThrottle | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly stderrTail: TailBuffer;
  private readonly onAbort = (): void => this.aborted();
  /** Stops hearing the host's second stop signal (HostStop.killNow). */
  private unhearKillNow: (() => void) | undefined;

  constructor(private readonly options: SupervisorOptions) {
    this.stderrTail = new TailBuffer(undefined, undefined, options.redact);
  }

  async run(): Promise<SupervisedExit> {
    const { options } = this;
    let backend: BackendProcess;
    try {
      backend = new BackendProcess({
        file: options.file,
        args: options.args,
        cwd: options.cwd,
        env: options.env,
        graceMs: options.graceMs,
        pipeStdin: options.driver !== undefined,
      });
    } catch (err) {
      // spawn refuses some argv outright (a NUL byte): nothing ran, and the run still ends properly.
      // Its message would quote the argument, which may hold a secret: only its code is said.
      const code = (err as NodeJS.ErrnoException).code;
      return this.launchFailed(code ?? "spawn refused its arguments", code);
    }
    this.backend = backend;
    const unhear =
      options.processSignals !== false ? onStopSignals((signal) => this.signalled(signal)) : () => undefined;
    options.abortSignal?.addEventListener("abort", this.onAbort, { once: true });
    try {
      if (options.abortSignal?.aborted) this.aborted();
      this.stdoutThrottle = new PipeThrottle(backend.stdout, options.writer);
      const stderrThrottle = new PipeThrottle(backend.stderr, options.stderrShown);
      backend.stdout.on("data", (chunk: Buffer) => this.fromStdout(chunk));
      backend.stderr.on("data", (chunk: Buffer) => {
        this.stderrTail.push(chunk);
        options.onStderr(chunk);
        stderrThrottle.check();
      });
      // The driver reads no stdout of its own: the run's reading hands it each line (Driver.read).
      const { driver } = options;
      if (driver && backend.stdin) {
        driver.attach({
          stdin: backend.stdin,
          tell: (event) => (this.stdoutClosed ? undefined : options.onDriverEvent?.(event)),
          warn: (text) => options.onDriverWarning?.(text),
          redact: (text) => options.redact?.(text) ?? text,
          graceMs: options.graceMs,
          halt: () => backend.stop(options.spec.stopSignal),
        });
        // The driver closed its stdin: the conversation, and so the outcome, is over; only its exit is awaited (--linger).
        backend.stdin.once("finish", () => this.terminal());
        // A driven backend that closed its stdout can say nothing more: one that lives on past the grace period is stopped.
        backend.stdout.once("end", () => {
          options.onStdoutEnd?.();
          driver.inputEnded();
          this.later(options.graceMs, () => backend.stop(options.spec.stopSignal));
        });
      }
      if (options.timeoutMs !== undefined) this.later(options.timeoutMs, () => this.timedOut());
      if (options.writer.closed) this.readerGone();
      const end = await backend.ended;
      if (this.stdoutClosed || options.writer.closed) return { kind: "stdout_closed" };
      if (!end.launched) return this.launchFailed(end.error.message, end.error.code);
      return {
        kind: "exited",
        backendExit: end.exit,
        stderrTail: this.stderrTail.snapshot(),
        ...(this.interruption ? { interruption: this.interruption } : {}),
      };
    } finally {
      unhear();
      this.unhearKillNow?.();
      options.abortSignal?.removeEventListener("abort", this.onAbort);
      for (const timer of this.timers) clearTimeout(timer);
    }
  }

  private launchFailed(reason: string, code?: string): SupervisedExit {
    const why = code === "E2BIG" ? "its command line and environment are too long for the system (E2BIG)" : reason;
    return {
      kind: "launch_failed",
      message: `${this.options.spec.displayName} executable ${this.options.file} could not be started: ${why}`,
      ...(code ? { code } : {}),
    };
  }

  /** The backend wrote its terminal event: the outcome is known, only its exit is awaited. */
  terminal(): void {
    if (this.terminalSeen) return;
    this.terminalSeen = true;
    this.options.onStatus(`waiting for ${this.options.spec.displayName} to exit`);
    if (this.options.lingerMs !== undefined)
      this.later(this.options.lingerMs, () => this.stop(this.options.spec.stopSignal));
  }

  /** Our reader closed stdout (EPIPE): nothing more can be written, so the backend is stopped. */
  readerGone(): void {
    if (this.stdoutClosed) return;
    this.stdoutClosed = true;
    this.stop(this.options.spec.stopSignal);
    // Let the backend's pipe drain so that it can exit.
    this.stdoutThrottle?.release();
  }

  private fromStdout(chunk: Buffer): void {
    if (this.stdoutClosed) return;
    this.options.onStdout(chunk);
    this.stdoutThrottle!.check();
  }

  private signalled(signal: StopSignal): void {
    // A second signal while the backend is being stopped: no more waiting.
    if (this.stopRequested) return this.backend?.kill();
    this.interruption ??= { kind: "signal", signal };
    this.options.onStatus(`${signal}: stopping ${this.options.spec.displayName}`);
    this.stop(this.options.spec.stopSignal);
  }

  private aborted(): void {
    // The host says why it stops the run (a compare's stop signal or budget): ended as that, not as an abort.
    const reason: unknown = this.options.abortSignal?.reason;
    // Its second signal kills the backend at once, as a second signal to `run` does.
    if (reason instanceof HostStop) this.unhearKillNow ??= reason.onKillNow(() => this.backend?.kill());
    if (reason instanceof HostStop && reason.interruption.kind === "signal")
      return this.signalled(reason.interruption.signal);
    if (reason instanceof HostStop && reason.interruption.kind === "budget")
      return this.limitReached(reason.interruption.message);
    if (this.stopRequested) return;
    this.interruption ??= { kind: "aborted" };
    this.options.onStatus(`aborted: stopping ${this.options.spec.displayName}`);
    this.stop(this.options.spec.stopSignal);
  }

  /** A limit (--max-turns, --max-tokens, --max-cost-usd) was crossed: stopped its clean way, as for --timeout. */
  limitReached(message: string): void {
    if (this.stopRequested) return;
    this.interruption ??= { kind: "budget", message };
    this.options.onStatus(`${message}: stopping ${this.options.spec.displayName}`);
    this.stop(this.options.spec.stopSignal);
  }

  private timedOut(): void {
    this.interruption ??= { kind: "timeout" };
    this.options.onStatus(`timed out: stopping ${this.options.spec.displayName}`);
    this.stop("SIGTERM");
  }

  private stop(signal: NodeJS.Signals): void {
    if (this.stopRequested && this.options.driver) return;
    this.stopRequested = true;
    const { driver } = this.options;
    if (!driver) return this.backend?.stop(signal);
    // Driven: asked its protocol's way first; the signal only if it has not ended after the grace period.
    driver.stop();
    this.later(this.options.graceMs, () => this.backend?.stop(signal));
  }

  private later(ms: number, action: () => void): void {
    this.timers.push(setTimeout(action, ms));
  }
}
