/**
 * Runs tasks for the same key one after another, in arrival order; tasks for different keys run freely.
 * In-process only, never what makes a write correct (the database's row locks and conditional updates
 * are, across instances too): it keeps a burst of requests for ONE record (a double click repeated 200
 * times, a script) from piling up as many transactions waiting on one row lock, each holding a pooled
 * connection, which stalls every other user of the instance. Queued here, each later request finds the
 * first one's outcome with one cheap read and fails fast (docs/decisions/024).
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    const result = previous ? previous.then(task) : task();
    // The next task waits for this one to settle, whatever its outcome.
    const tail = result.then(
      () => {},
      () => {},
    );
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      // The last task of a key leaves nothing behind.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with a task running or waiting (for tests: the map must not grow without bound). */
  get size(): number {
    return this.tails.size;
  }
}
