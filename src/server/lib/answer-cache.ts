import { randomUUID } from 'node:crypto';
import { ANNOUNCING_TABLES, NAME_ANNOUNCING_TABLES } from '../db/migrations/048-name-starts';

/**
 * Back-office answers (list pages, dashboard figures) read moments ago, shared by the requests that ask for
 * the same thing (docs/decisions/030). Correctness rests on what empties it, not on the time limit alone,
 * exactly as for the session cache (decision 027). Each answer names the tables it reads, and a change
 * empties only the answers that read the changed table (docs/decisions/043):
 * - the database's triggers (migrations 020 and 034) announce every change to a table an answer reads, by
 *   its name, and every instance forgets the answers reading it on hearing it; an announcement naming no
 *   table it knows, a lost listening connection, or one got back empties everything, and nothing is kept
 *   while it is down;
 * - a write request of this instance, before its answer leaves, sends a marker of its own and waits until
 *   it hears it: announcements arrive in commit order, so by then it has heard those of its own commits.
 *   Not heard in time (or nothing listening): everything is emptied, as before decision 043;
 * - an answer still being read is shared only until it is forgotten: requests after that read again.
 * - a change to a borrower's rows names the borrowers (migration 043, docs/decisions/067): an answer that
 *   holds only rows of borrowers whose name contains a text (a name search, `AnswerScope`) is kept when none
 *   of the names announced contains it.
 * The time limit (STAFF_ANSWER_CACHE_MS) bounds what a lost notification could leave behind, and how long
 * an answer that depends on the clock alone (an overdue day count) may lag it.
 */
/**
 * A table a back-office answer declares it reads: one that announces its changes (migrations 020, 034, 042
 * and on). A name search also reads the word starts of migration 048, which change only with `applications`
 * and are covered by its announcements.
 */
export type AnswerTable = (typeof ANNOUNCING_TABLES)[number];

const KNOWN_TABLES: ReadonlySet<string> = new Set(ANNOUNCING_TABLES);
const NAMING_TABLES: ReadonlySet<string> = new Set(NAME_ANNOUNCING_TABLES);

/**
 * What an answer holds, where less than everything in the tables it reads: `borrowerNameContains`, the
 * answer (every row, and every count in it) comes only from rows of applications whose lower-cased full
 * name contains this text — exactly the test its SQL makes (`lower(full_name) like '%text%'`).
 */
export interface AnswerScope {
  borrowerNameContains: string;
}

/** How a write request's own marker is told from a table's name on the announcement channel. */
const MARKER_PREFIX = 'sync:';

/** How long a write request waits to hear its marker before emptying everything instead. */
export const CATCH_UP_MS = 1_000;

export interface AnswerCacheOptions {
  maxEntries?: number;
  now?: () => number;
  /** Whether changes made elsewhere are being heard; while not, nothing is kept. */
  hearingChanges?: () => boolean;
  /**
   * Sends `payload` on the announcement channel through the database (`pg_notify`), to be heard back by
   * `heard`. Absent when nothing here hears the database: a write request then empties everything.
   */
  announce?: (payload: string) => Promise<unknown>;
  /** How long a write request waits to hear its marker (CATCH_UP_MS). */
  catchUpMs?: number;
}

interface Entry {
  /** The cache's clock when its read began: an answer is aged from what the database saw, not from its end. */
  startedAt: number;
  value: Promise<unknown>;
  reads: readonly AnswerTable[];
  scope: AnswerScope | undefined;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly hearingChanges: () => boolean;
  private readonly announce: ((payload: string) => Promise<unknown>) | undefined;
  private readonly catchUpMs: number;
  /** Markers sent and not yet heard, each with what to do when it is (or when everything is emptied). */
  private readonly waiting = new Map<string, () => void>();
  /** The next marker's round, joined by the write requests that finish before it is sent. */
  private nextRound: Promise<void> | null = null;
  private lastRound: Promise<void> = Promise.resolve();

  constructor(
    /** 0 turns the cache off: every request reads. */
    readonly ttlMs: number,
    options: AnswerCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 1_000;
    this.now = options.now ?? (() => performance.now());
    this.hearingChanges = options.hearingChanges ?? (() => true);
    this.announce = options.announce;
    this.catchUpMs = options.catchUpMs ?? CATCH_UP_MS;
  }

  /**
   * The answer for `key`: one read moments ago (or still under way) when there is one, else `read()`, kept
   * for the next requests. A read that fails is not kept. `key` must name everything the answer depends on
   * apart from the database (the route and its parsed query), and `reads` every table `read` reads
   * (`answer-cache.api.test.ts` checks it against the SQL each cached route runs); `scope`, where the answer
   * holds less (`AnswerScope`).
   */
  get<T>(
    key: string,
    reads: readonly AnswerTable[],
    read: () => Promise<T>,
    scope?: AnswerScope,
  ): Promise<T> {
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
    const kept: Entry = { startedAt: now, value, reads, scope };
    this.entries.set(key, kept);
    value.catch(() => {
      if (this.entries.get(key) === kept) this.entries.delete(key);
    });
    return value;
  }

  /**
   * An announcement heard on the channel: a table's name forgets the answers that read it, a table's name
   * with the borrowers' names its change touched (`table:["name", ...]`, migration 043) those that read it
   * and may hold one of them; a marker of this instance's is its write request caught up (another
   * instance's is nothing to us); anything else (an empty payload, an older instance's, a table unknown to
   * this version, null for "announcements were missed") may mean any change, so everything goes.
   */
  heard(payload: string | null): void {
    if (payload?.startsWith(MARKER_PREFIX)) {
      this.waiting.get(payload)?.();
      return;
    }
    if (payload && KNOWN_TABLES.has(payload)) {
      this.forget(payload as AnswerTable);
      return;
    }
    const named = payload ? namedChange(payload) : undefined;
    if (named) this.forget(named.table, named.names);
    else this.clear();
  }

  /**
   * Forgets every answer that reads `table`, or, given the borrowers' names a change touched, every one that
   * reads it except those scoped to a name text that none of them contains.
   */
  forget(table: AnswerTable, names?: readonly string[]): void {
    for (const [key, entry] of this.entries) {
      if (!entry.reads.includes(table)) continue;
      const text = entry.scope?.borrowerNameContains;
      if (names && text && !names.some((name) => name.includes(text))) continue;
      this.entries.delete(key);
    }
  }

  /** Anything may have changed: an unknown announcement, a lost connection, a marker not heard in time. */
  clear(): void {
    this.entries.clear();
    // Whatever a waiting write request changed was committed before now: no answer read before it is left.
    for (const caughtUp of this.waiting.values()) caughtUp();
  }

  /**
   * Called once a write request's work is done and before its answer leaves: resolves once this instance
   * has heard every announcement committed before the call (its own marker came back after them), or has
   * emptied everything. No request sent after the write's answer can then be served an older read.
   * Write requests that finish while a marker is on its way share the next one.
   */
  caughtUp(): Promise<void> {
    if (this.ttlMs <= 0) return Promise.resolve();
    if (!this.announce || !this.hearingChanges()) {
      this.clear();
      return Promise.resolve();
    }
    if (!this.nextRound) {
      const round = this.lastRound.then(() => {
        // From here on, a write request that finishes joins the round after this one.
        this.nextRound = null;
        return this.roundTrip();
      });
      this.nextRound = round;
      this.lastRound = round;
    }
    return this.nextRound;
  }

  private async roundTrip(): Promise<void> {
    const announce = this.announce;
    if (!announce || !this.hearingChanges()) return this.clear();
    const marker = `${MARKER_PREFIX}${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = await new Promise<boolean>((resolve) => {
      this.waiting.set(marker, () => resolve(true));
      timer = setTimeout(() => resolve(false), this.catchUpMs);
      announce(marker).catch(() => resolve(false));
    });
    clearTimeout(timer);
    this.waiting.delete(marker);
    if (!heard) this.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** `table:["name", ...]` as migration 043 announces it, or undefined for anything else. */
function namedChange(payload: string): { table: AnswerTable; names: string[] } | undefined {
  const colon = payload.indexOf(':');
  const table = payload.slice(0, colon);
  if (colon < 0 || !NAMING_TABLES.has(table)) return undefined;
  let names: unknown;
  try {
    names = JSON.parse(payload.slice(colon + 1));
  } catch {
    return undefined;
  }
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string'))
    return undefined;
  return { table: table as AnswerTable, names };
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
