/**
 * At most `limit` tasks at once; later callers wait in order (FIFO) for a free slot. In-process only: it
 * bounds what one instance spends on CPU-heavy work, e.g. password hashing.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore limit must be ≥ 1, not ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next caller, so a newcomer cannot take it in between.
      if (next) next();
      else this.active -= 1;
    }
  }
}
