// One piece of work that may not end, or not end well (a user's schema compiled, an answer checked against
// it), run in a worker thread bounded in time, memory and stack: stopped by its time bound or by the caller's
// AbortSignal (worker.terminate() stops even a regular expression that backtracks without end), and a stack
// overflow, an exhausted heap or a throw are a verdict, never a crash of the run.
import { Worker } from "node:worker_threads";

/** Its bounds: the time it may take, and the heap its worker may use. */
export interface WorkBounds {
  timeLimitMs: number;
  /** Stops the work; its `reason` comes back as `stopped`. */
  signal?: AbortSignal;
}

/** The worker's heap bound (old generation), in MiB. */
export const WORKER_HEAP_MB = 512;

export type BoundedResult<T> =
  | { done: T }
  /** It could not be done in its bounds: "time", "memory", "stack" (nested or recursing too deep), or "error" with the message. */
  | { cannot: "time" | "memory" | "stack" | "error"; message?: string }
  | { stopped: unknown };

/**
 * Run `body(input, require)` in a worker thread. `body` must be self-contained (its source is all the worker
 * gets); `require` resolves from `requireFrom` (a file path), and input and result are structured-cloned.
 */
export function runBounded<I, T>(
  body: (input: I, require: NodeJS.Require) => T,
  input: I,
  requireFrom: string,
  bounds: WorkBounds,
): Promise<BoundedResult<T>> {
  if (bounds.signal?.aborted) return Promise.resolve({ stopped: bounds.signal.reason });
  return new Promise((settle) => {
    let worker: Worker;
    try {
      worker = new Worker(workerSource(body), {
        eval: true,
        workerData: { input, requireFrom },
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        // Its own stdio is not ours to share: nothing of it reaches the run's stderr.
        stdout: true,
        stderr: true,
      });
    } catch (err) {
      // No thread to be had (or the input cannot be cloned): a verdict like any other.
      return settle({ cannot: "error", message: (err as Error).message });
    }
    // What it writes there (ajv's warnings about a schema) is dropped, not held.
    worker.stdout.resume();
    worker.stderr.resume();
    let result: BoundedResult<T> | undefined;
    const end = (verdict: BoundedResult<T>): void => {
      result ??= verdict;
      void worker.terminate();
    };
    const timer = setTimeout(() => end({ cannot: "time" }), bounds.timeLimitMs);
    const onAbort = (): void => end({ stopped: bounds.signal!.reason });
    bounds.signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (message: WorkerAnswer<T>) =>
      end("done" in message ? { done: message.done } : { cannot: message.cannot, message: message.message }),
    );
    worker.on("error", (err: NodeJS.ErrnoException) =>
      end(
        err.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? { cannot: "memory" }
          : isStackOverflow(err)
            ? { cannot: "stack" }
            : { cannot: "error", message: err.message },
      ),
    );
    worker.once("exit", () => {
      clearTimeout(timer);
      bounds.signal?.removeEventListener("abort", onAbort);
      settle(result ?? { cannot: "error", message: "the worker ended without an answer" });
    });
  });
}

type WorkerAnswer<T> = { done: T } | { cannot: "stack" | "error"; message?: string };

function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/**
 * The worker's whole program: the body's source, called once on workerData, its answer posted back. It
 * imports with import(), which a script has whether it runs as CommonJS or, under the parent's
 * --input-type=module (inherited with its execArgv), as a module.
 */
function workerSource(body: (...args: never[]) => unknown): string {
  return `"use strict";
(async () => {
  const { parentPort, workerData } = await import("node:worker_threads");
  const { createRequire } = await import("node:module");
  const body = (${body.toString()});
  let answer;
  try {
    answer = { done: body(workerData.input, createRequire(workerData.requireFrom)) };
  } catch (err) {
    const stack = err instanceof RangeError && /call stack/i.test(err.message);
    answer = stack ? { cannot: "stack" } : { cannot: "error", message: String(err && err.message) };
  }
  parentPort.postMessage(answer);
})();
`;
}
