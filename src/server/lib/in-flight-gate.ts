/**
 * What the requests released together share: a read made once, after every one of them had arrived, answers
 * all of them. Nothing is kept past the batch: the next request for the key starts a batch of its own.
 */
export interface Batch {
  once<T>(name: string, read: () => Promise<T>): Promise<T>;
}

/** A batch of one: what a request that waited for nobody reads on its own. */
export function newBatch(): Batch {
  const reads = new Map<string, Promise<unknown>>();
  return {
    once<T>(name: string, read: () => Promise<T>) {
      let pending = reads.get(name) as Promise<T> | undefined;
      if (!pending) {
        pending = read();
        reads.set(name, pending);
      }
      return pending;
    },
  };
}

interface InFlight {
  settled: Promise<void>;
  /** The batch the requests waiting for this one will share, made when the first of them arrives. */
  waiters?: Batch;
}

/**
 * Per key (a record), the first request runs; requests for the same key that arrive while it is in flight
 * wait until it is done, then run side by side, sharing one `Batch`. Different keys never wait for each
 * other. In-process only, never what makes a write correct (the database's row locks and conditional
 * updates are, across instances too): it keeps a burst of requests for ONE record (a double click repeated
 * 200 times, a script) from piling up as transactions waiting on one row lock, each holding a pooled
 * connection while every other user of the instance waits. Released after the first has finished, the
 * others find its outcome with one read they share, and fail fast, together (docs/decisions/024).
 *
 * A batch's shared read starts after the waiters are released, so it sees the world after every one of
 * them was sent: answering each of them from it is as if each had read on its own at that moment.
 */
export class InFlightGate {
  private readonly inFlight = new Map<string, InFlight>();

  async run<T>(key: string, task: (batch: Batch) => Promise<T>): Promise<T> {
    const first = this.inFlight.get(key);
    if (first) {
      first.waiters ??= newBatch();
      const batch = first.waiters;
      await first.settled;
      return task(batch);
    }
    const result = task(newBatch());
    const entry: InFlight = {
      settled: result.then(
        () => {},
        () => {},
      ),
    };
    this.inFlight.set(key, entry);
    try {
      return await result;
    } finally {
      // Done: the key leaves nothing behind, and the next request for it goes first again.
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
    }
  }

  /** Keys with a request in flight (for tests: the map must not grow without bound). */
  get size(): number {
    return this.inFlight.size;
  }
}
