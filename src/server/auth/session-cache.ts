/**
 * What a session lookup read, kept for a moment so the next requests of the same browser skip the
 * round trip (docs/decisions/027). Correctness rests on three things, not on the time limit alone:
 * - every write request of this instance empties it before its answer leaves (the app's own changes: a
 *   sign-out, a new password, a deactivated user, a changed avatar);
 * - on PostgreSQL, triggers on users, sessions and second factors NOTIFY every instance of the user whose
 *   sessions changed, and a lost listening connection empties it (another instance's changes, a scheduled
 *   job, an operator's SQL);
 * - a lookup that started before an emptying is not kept, so a read racing a write cannot store the old row.
 * The time limit (SESSION_CACHE_MS) only bounds what a notification lost without a dropped connection could
 * leave behind. Entries are kept for their time limit at most and never beyond `maxEntries`.
 */
export interface CachedSession<Row> {
  userId: string;
  row: Row;
  /** performance.now() when its lookup began. */
  readAt: number;
}

/** Taken before a lookup's query: when it began, and the cache's generation then. */
export interface LookupTicket {
  generation: number;
  startedAt: number;
}

export interface SessionCacheOptions {
  maxEntries?: number;
  now?: () => number;
  /**
   * Whether changes made elsewhere are being heard (on PostgreSQL: the listening connection is up). While not,
   * nothing is stored: a change another instance made would go unannounced for up to the time limit.
   */
  hearingChanges?: () => boolean;
}

export class SessionCache<Row> {
  private readonly entries = new Map<string, CachedSession<Row>>();
  private readonly byUser = new Map<string, Set<string>>();
  private generation = 0;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly hearingChanges: () => boolean;

  constructor(
    /** 0 turns the cache off. */
    readonly ttlMs: number,
    options: SessionCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? (() => performance.now());
    this.hearingChanges = options.hearingChanges ?? (() => true);
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Call before a lookup's query; pass the ticket to `set` with its answer. */
  begin(): LookupTicket {
    return { generation: this.generation, startedAt: this.now() };
  }

  /** The row and how long ago its lookup began (ms), or undefined when absent or past its time limit. */
  get(idHash: string): { row: Row; ageMs: number } | undefined {
    const entry = this.entries.get(idHash);
    if (!entry) return undefined;
    const ageMs = this.now() - entry.readAt;
    if (ageMs >= this.ttlMs) {
      this.delete(idHash);
      return undefined;
    }
    return { row: entry.row, ageMs };
  }

  /**
   * Keeps a row read by the lookup `ticket` began, unless the cache was emptied since or changes are not being
   * heard. It is aged from when the lookup began (the database measured its spans then), not from its answer.
   */
  set(idHash: string, userId: string, row: Row, ticket: LookupTicket): void {
    if (!this.enabled || ticket.generation !== this.generation || !this.hearingChanges()) return;
    const readAt = ticket.startedAt;
    this.delete(idHash);
    if (this.entries.size >= this.maxEntries) {
      // Maps keep insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.entries.set(idHash, { userId, row, readAt });
    const hashes = this.byUser.get(userId);
    if (hashes) hashes.add(idHash);
    else this.byUser.set(userId, new Set([idHash]));
  }

  delete(idHash: string): void {
    const entry = this.entries.get(idHash);
    if (!entry) return;
    this.entries.delete(idHash);
    const hashes = this.byUser.get(entry.userId);
    hashes?.delete(idHash);
    if (hashes?.size === 0) this.byUser.delete(entry.userId);
  }

  /** One user's sessions changed (a notification from the database). */
  forgetUser(userId: string): void {
    this.generation += 1;
    for (const idHash of this.byUser.get(userId) ?? []) this.entries.delete(idHash);
    this.byUser.delete(userId);
  }

  /** Anything may have changed: a write request, a job, a lost notification connection. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.byUser.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
