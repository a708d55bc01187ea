import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { BackendExit } from "../canonical/events.js";
import {
  escapedGroups,
  processRunning,
  readProcessTable,
  signalGroup,
  signalProcess,
  waitUntilGone,
  type ProcessTable,
} from "./process-group.js";
import { TrackedGroup } from "./tracked-group.js";
import { possiblyHeld, processesHolding, stdioIdentities, type StdioIdentities } from "./stdio-holders.js";

/** How the backend process ended: its exit, or the error that kept it from being spawned. */
export type ExitOrSpawnError =
  | { launched: true; exit: BackendExit }
  | { launched: false; error: NodeJS.ErrnoException };

export interface BackendProcessOptions {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How long a stopped backend (or what it left behind) gets before SIGKILL. */
  graceMs: number;
  /** Its stdin a pipe, for a backend driven over its stdin and stdout (ACP); otherwise not one. */
  pipeStdin?: boolean;
  /** Where its descendants are looked up (tests inject one). */
  processTable?: ProcessTable;
}

// Process groups are a POSIX notion; on Windows only the process itself is signalled.
const USE_PROCESS_GROUP = process.platform !== "win32";

/**
 * One backend process: spawned without a shell, stdin not a pipe (Atomic and
 * pi block reading an open one) unless it is driven over it, in its own process group so that a terminal's
 * Ctrl-C reaches agentstream only (which then stops the backend its own clean
 * way) and so that stopping it reaches whatever it started. `ended` resolves
 * once the process has exited, nothing of its group is left running, nothing
 * it started still holds its stdout or stderr, and both are closed.
 */
export class BackendProcess {
  readonly ended: Promise<ExitOrSpawnError>;
  private readonly child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  private exited = false;
  /** Exited and nothing of its group left: its pid may now belong to someone else. */
  private reaped = false;
  private killTimer: NodeJS.Timeout | undefined;
  /** The backend's stdout and stderr as the kernel names them: what its strays would still hold. */
  private readonly stdioIds: StdioIdentities;
  /** Processes outside its group that held its stdout or stderr after it exited. */
  private strays: number[] = [];
  private readonly killOnExit = (): void => this.kill();
  /** Process groups of the backend's descendants that left its group, found when it was signalled. */
  private readonly escaped = new Map<number, TrackedGroup>();
  private readonly table: ProcessTable;

  constructor(private readonly options: BackendProcessOptions) {
    this.table = options.processTable ?? readProcessTable;
    this.child = spawn(options.file, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.pipeStdin ? "pipe" : "ignore", "pipe", "pipe"],
      detached: USE_PROCESS_GROUP,
      windowsHide: true,
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>;
    this.stdioIds =
      this.child.pid !== undefined
        ? stdioIdentities(this.child.pid, [this.child.stdout, this.child.stderr].map(fileDescriptor))
        : { names: [] };
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

  /** Its stdin, when it was spawned with one piped. */
  get stdin(): Writable | null {
    return this.child.stdin;
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
      // Found before the backend dies: then its children are init's and no longer traced to it.
      if (USE_PROCESS_GROUP) this.findEscaped(pid);
      if (USE_PROCESS_GROUP) signalGroup(pid, signal);
      else if (!this.exited) this.child.kill(signal);
    }
    // Each only while it is still the group found: a stopped one's id may be an unrelated process's by now.
    for (const group of this.escaped.values()) group.signal(signal);
    this.signalStrays(signal);
  }

  private findEscaped(pid: number): void {
    // A group found again among its descendants: the one known, or a new one under an id that was freed.
    for (const [id, found] of escapedGroups(pid, pid, this.table))
      if (!this.escaped.get(id)?.add(found)) this.escaped.set(id, new TrackedGroup(id, found, this.table));
  }

  private signalStrays(signal: NodeJS.Signals): void {
    for (const pid of this.strays) if (processRunning(pid)) signalProcess(pid, signal);
  }

  private async afterExit(): Promise<void> {
    const pid = this.child.pid!;
    // The backend is gone but may have left processes behind: they must not outlive the run.
    if (USE_PROCESS_GROUP) await this.stopGroup(TrackedGroup.now(pid, this.table));
    this.reaped = true;
    // Groups its children made of their own, seen when it was stopped: stopped the same way.
    for (const group of this.escaped.values()) await this.stopGroup(group);
    await this.stopStrays();
    process.removeListener("exit", this.killOnExit);
    await this.stdioClosed();
  }

  /**
   * Those that left its group (setsid) are found by the stdout or stderr they
   * still hold, and stopped: SIGTERM, SIGKILL after the grace period. Looked
   * for again until nothing holds them: a stray may start another before it
   * stops, and one just leaving the group may be seen by neither look.
   */
  private async stopStrays(): Promise<void> {
    const killDue = new Map<number, number>();
    let interval = 10;
    // What cannot be stopped (not ours to signal) is left to stdioClosed() once the last one found had its time.
    let giveUpAt = performance.now() + this.options.graceMs + 1000;
    while (!this.stdioEnded() && possiblyHeld(this.stdioIds) && performance.now() < giveUpAt) {
      const holders = processesHolding(this.stdioIds);
      // Held by none we can see (another user's): stdioClosed() gives up on it.
      if (holders.length === 0 && !this.strays.some(processRunning)) return;
      for (const pid of holders) {
        if (killDue.has(pid)) continue;
        this.strays.push(pid);
        signalProcess(pid, "SIGTERM");
        killDue.set(pid, performance.now() + this.options.graceMs);
        giveUpAt = performance.now() + this.options.graceMs + 1000;
      }
      for (const [pid, due] of killDue)
        if (performance.now() >= due && processRunning(pid)) signalProcess(pid, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, interval));
      interval = Math.min(interval * 2, 200);
    }
  }

  private stdioEnded(): boolean {
    return this.child.stdout.closed && this.child.stderr.closed;
  }

  /** SIGTERM, then SIGKILL what is still there after the grace period. */
  private async stopGroup(group: TrackedGroup): Promise<void> {
    if (!group.signal("SIGTERM")) return;
    if (await waitUntilGone(() => group.alive(), this.options.graceMs)) return;
    group.signal("SIGKILL");
    await waitUntilGone(() => group.alive(), 1000);
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
        if (held.some((s) => s.isPaused()) || !possiblyHeld(this.stdioIds))
          return void setTimeout(giveUp, Math.max(this.options.graceMs, 100)).unref();
        for (const s of held) s.destroy();
      };
      setTimeout(giveUp, this.options.graceMs).unref();
    });
  }
}

/** Our file descriptor of a pipe to the child; undefined where node does not tell. */
function fileDescriptor(stream: Readable): number | undefined {
  const fd = (stream as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === "number" && fd >= 0 ? fd : undefined;
}
