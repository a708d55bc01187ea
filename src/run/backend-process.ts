import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import type { BackendExit } from "../canonical/events.js";
import { groupAlive, processRunning, signalGroup, signalProcess, waitUntilGone } from "./process-group.js";
import { possiblyHeld, processesHolding, stdioIdentities } from "./stdio-holders.js";

export type BackendEnd = { launched: true; exit: BackendExit } | { launched: false; error: NodeJS.ErrnoException };

export interface BackendProcessOptions {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How long a stopped backend (or what it left behind) gets before SIGKILL. */
  graceMs: number;
}

// Process groups are a POSIX notion; on Windows only the process itself is signalled.
const USE_PROCESS_GROUP = process.platform !== "win32";

/**
 * One backend process: spawned without a shell, stdin not a pipe (Atomic and
 * pi block reading an open one), in its own process group so that a terminal's
 * Ctrl-C reaches agentstream only (which then stops the backend its own clean
 * way) and so that stopping it reaches whatever it started. `ended` resolves
 * once the process has exited, nothing of its group is left running, nothing
 * it started still holds its stdout or stderr, and both are closed.
 */
export class BackendProcess {
  readonly ended: Promise<BackendEnd>;
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private exited = false;
  /** Exited and nothing of its group left: its pid may now belong to someone else. */
  private reaped = false;
  private killTimer: NodeJS.Timeout | undefined;
  /** How the kernel names the backend's stdout and stderr: what its strays would still hold. */
  private readonly stdioIds: string[];
  /** Processes outside its group that held its stdout or stderr after it exited. */
  private strays: number[] = [];
  private readonly killOnExit = (): void => this.kill();

  constructor(private readonly options: BackendProcessOptions) {
    this.child = spawn(options.file, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: USE_PROCESS_GROUP,
      windowsHide: true,
    });
    this.stdioIds = this.child.pid !== undefined ? stdioIdentities(this.child.pid) : [];
    // Last resort should agentstream itself die of an error: take the backend with it.
    if (this.child.pid !== undefined) process.once("exit", this.killOnExit);
    this.ended = new Promise((resolve) => {
      this.child.once("error", (error: NodeJS.ErrnoException) => {
        if (this.child.pid === undefined) resolve({ launched: false, error });
      });
      this.child.once("exit", (code, signal) => {
        this.exited = true;
        clearTimeout(this.killTimer);
        void this.afterExit().then(() => resolve({ launched: true, exit: { code, signal } }));
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdout(): Readable {
    return this.child.stdout;
  }

  get stderr(): Readable {
    return this.child.stderr;
  }

  /** Ask the backend to stop with `signal`; SIGKILL what is left of it after the grace period. */
  stop(signal: NodeJS.Signals): void {
    if (this.exited || this.killTimer) return;
    this.signal(signal);
    this.killTimer = setTimeout(() => this.kill(), this.options.graceMs);
  }

  /** SIGKILL the backend and everything in its process group, now. */
  kill(): void {
    this.signal("SIGKILL");
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (!this.reaped) {
      if (USE_PROCESS_GROUP) signalGroup(pid, signal);
      else if (!this.exited) this.child.kill(signal);
    }
    this.signalStrays(signal);
  }

  private signalStrays(signal: NodeJS.Signals): void {
    for (const pid of this.strays) if (processRunning(pid)) signalProcess(pid, signal);
  }

  private async afterExit(): Promise<void> {
    const pid = this.child.pid!;
    // The backend is gone but may have left processes behind: they must not outlive the run.
    if (USE_PROCESS_GROUP) await this.stopAll(() => groupAlive(pid), (signal) => signalGroup(pid, signal));
    this.reaped = true;
    // Those that left its group (setsid) are found by the stdout or stderr they still hold.
    if ((!this.child.stdout.closed || !this.child.stderr.closed) && possiblyHeld(this.stdioIds)) {
      this.strays = processesHolding(this.stdioIds);
      await this.stopAll(() => this.strays.some(processRunning), (signal) => this.signalStrays(signal));
    }
    process.removeListener("exit", this.killOnExit);
    await this.stdioClosed();
  }

  /** SIGTERM, then SIGKILL what is still there after the grace period. */
  private async stopAll(alive: () => boolean, signal: (signal: NodeJS.Signals) => void): Promise<void> {
    if (!alive()) return;
    signal("SIGTERM");
    if (await waitUntilGone(alive, this.options.graceMs)) return;
    signal("SIGKILL");
    await waitUntilGone(alive, 1000);
  }

  /** Wait for the backend's stdout and stderr to be read to the end. */
  private async stdioClosed(): Promise<void> {
    const streams = [this.child.stdout, this.child.stderr].filter((s) => !s.closed);
    if (streams.length === 0) return;
    await new Promise<void>((resolve) => {
      let open = streams.length;
      for (const s of streams) s.once("close", () => --open === 0 && resolve());
      // A process we could not find or stop may still hold a pipe: give up on
      // it after the grace period, but never while the pipe is paused for our
      // reader, nor while what is left is only on its way (nobody holds it).
      const giveUp = (): void => {
        const held = streams.filter((s) => !s.closed);
        if (held.length === 0) return;
        if (held.some((s) => s.isPaused()) || !possiblyHeld(this.stdioIds)) return void setTimeout(giveUp, Math.max(this.options.graceMs, 100)).unref();
        for (const s of held) s.destroy();
      };
      setTimeout(giveUp, this.options.graceMs).unref();
    });
  }
}
