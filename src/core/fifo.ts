/** A first-in first-out queue with O(1) push and take (Array.shift is O(n)). */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, removed; undefined when empty. */
  take(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head++]!;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      // Taken items are released in bulk, so memory follows what is still queued.
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
