/**
 * Back-office answers (list pages, dashboard figures) read moments ago, shared by the requests that ask for
 * the same thing (docs/decisions/030). Correctness rests on what empties it, not on the time limit alone,
 * exactly as for the session cache (decision 027):
 * - every write request of this instance empties it before its answer leaves;
 * - the database's triggers (migration 020) announce every change to a table an answer reads, and every
 *   instance empties its cache on hearing it; a lost listening connection empties it too, and nothing is
 *   kept while it is down;
 * - an answer still being read is shared only until the next emptying: requests after that read again.
 * The time limit (STAFF_ANSWER_CACHE_MS) bounds what a lost notification could leave behind, and how long
 * an answer that depends on the clock alone (an overdue day count) may lag it.
 */
export interface AnswerCacheOptions {
  maxEntries?: number;
  now?: () => number;
  /** Whether changes made elsewhere are being heard; while not, nothing is kept. */
  hearingChanges?: () => boolean;
}

interface Entry {
  /** The cache's clock when its read began: an answer is aged from what the database saw, not from its end. */
  startedAt: number;
  value: Promise<unknown>;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly hearingChanges: () => boolean;

  constructor(
    /** 0 turns the cache off: every request reads. */
    readonly ttlMs: number,
    options: AnswerCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 1_000;
    this.now = options.now ?? (() => performance.now());
    this.hearingChanges = options.hearingChanges ?? (() => true);
  }

  /**
   * The answer for `key`: one read moments ago (or still under way) when there is one, else `read()`, kept
   * for the next requests. A read that fails is not kept. `key` must name everything the answer depends on
   * apart from the database (the route and its parsed query).
   */
  get<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return read();
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry) {
      // A clock set back (a test's, or the system's corrected) makes the entry as stale as one moved on.
      const age = now - entry.startedAt;
      if (age >= 0 && age < this.ttlMs) return entry.value as Promise<T>;
      this.entries.delete(key);
    }
    const value = read();
    if (!this.hearingChanges()) return value;
    if (this.entries.size >= this.maxEntries) {
      // Maps keep insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const kept: Entry = { startedAt: now, value };
    this.entries.set(key, kept);
    value.catch(() => {
      if (this.entries.get(key) === kept) this.entries.delete(key);
    });
    return value;
  }

  /** Anything may have changed: a write request, a change notice, a lost notification connection. */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * A back-office GET's key: its route, its path parameters and its parsed query. Use it only for an answer
 * that depends on nothing else: not on who asks (the route's permission check runs before, on every
 * request) nor on a header.
 */
export function answerKey(request: {
  routeOptions: { url?: string };
  params: unknown;
  query: unknown;
}): string {
  return `${request.routeOptions.url ?? ''} ${JSON.stringify(request.params ?? null)} ${JSON.stringify(request.query ?? null)}`;
}
