/**
 * The signals that stop a run. SIGHUP (terminal closed) is handled like
 * SIGTERM (exit 143): the backend is in its own process group and would
 * otherwise outlive agentstream.
 */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Hear each stop signal (instead of dying of it) until the returned function is called. */
export function onStopSignals(handler: (signal: StopSignal) => void): () => void {
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, handler);
  };
}

/** What a step before the spawn needs of the stop signals: whether one came, and to hear the next. */
export type StopWatch = Pick<EarlyStop, "signal" | "listen">;

/** For a caller that handles signals itself (the library): none ever comes. */
export const NO_STOPS: StopWatch = { signal: undefined, listen: () => () => false };

/**
 * Stop signals before the backend runs (while the prompt is read, pi asked its
 * version): heard rather than died of, the first one kept, each told to those
 * listening (`again`: not the first). The supervisor hears them from the spawn
 * on: `end()` hands over to it.
 */
export class EarlyStop {
  private first: StopSignal | undefined;
  private readonly listeners = new Set<(signal: StopSignal, again: boolean) => void>();
  private readonly unhear = onStopSignals((signal) => {
    const again = this.first !== undefined;
    this.first ??= signal;
    for (const listener of this.listeners) listener(signal, again);
  });

  /** The first stop signal so far. */
  get signal(): StopSignal | undefined {
    return this.first;
  }

  listen(listener: (signal: StopSignal, again: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  end(): void {
    this.unhear();
    this.listeners.clear();
  }
}
