/**
 * Per key (a record), the first request runs; requests for the same key that arrive while it is in flight
 * wait until it is done, then run side by side. Different keys never wait for each other. In-process only,
 * never what makes a write correct (the database's row locks and conditional updates are, across instances
 * too): it keeps a burst of requests for ONE record (a double click repeated 200 times, a script) from
 * piling up as transactions waiting on one row lock, each holding a pooled connection while every other
 * user of the instance waits. Released after the first has finished, the others find its outcome with one
 * cheap read each and fail fast, together (docs/decisions/024).
 */
export class InFlightGate {
  private readonly inFlight = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const first = this.inFlight.get(key);
    if (first) {
      await first;
      return task();
    }
    const result = task();
    const settled = result.then(
      () => {},
      () => {},
    );
    this.inFlight.set(key, settled);
    try {
      return await result;
    } finally {
      // Done: the key leaves nothing behind, and the next request for it goes first again.
      if (this.inFlight.get(key) === settled) this.inFlight.delete(key);
    }
  }

  /** Keys with a request in flight (for tests: the map must not grow without bound). */
  get size(): number {
    return this.inFlight.size;
  }
}
