/**
 * Items handed from a producer to an async consumer, with backpressure: it
 * needs draining while it holds `highWater` items or more, and is closed once
 * the consumer stops reading (what is pushed after that is dropped).
 */
export class EventQueue<T> {
  private items: T[] = [];
  private head = 0;
  private ended = false;
  private gone = false;
  private wakeConsumer: (() => void) | undefined;
  private drainWaiters: (() => void)[] = [];

  constructor(private readonly highWater = 1024) {}

  get closed(): boolean {
    return this.gone;
  }

  get needsDrain(): boolean {
    return !this.gone && this.size >= this.highWater;
  }

  private get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    if (this.gone) return;
    this.items.push(item);
    this.wake();
  }

  /** No more items will come. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The consumer stopped reading. */
  close(): void {
    this.gone = true;
    this.items = [];
    this.head = 0;
    this.releaseDrainWaiters();
    this.wake();
  }

  /** Resolves once the consumer has taken enough (or has gone). */
  drained(): Promise<void> {
    if (!this.needsDrain) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** The next item, waiting for it; undefined once the queue ended (or closed) and is empty. */
  async next(): Promise<T | undefined> {
    while (this.size === 0) {
      if (this.ended || this.gone) return undefined;
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
    const item = this.items[this.head]!;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    // Half empty again: the producer may go on.
    if (this.size <= this.highWater / 2) this.releaseDrainWaiters();
    return item;
  }

  private wake(): void {
    const wake = this.wakeConsumer;
    this.wakeConsumer = undefined;
    wake?.();
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
