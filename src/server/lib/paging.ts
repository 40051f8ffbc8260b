import {
  type AliasedRawBuilder,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import {
  approvedStatuses,
  awaitingDecisionStatuses,
  isRunning,
  runningStatuses,
} from '../../domain/loan/status';
import { PAGE_SIZE } from '../../domain/schemas/staff';
import { QUEUE_POSITION_FIGURES } from '../db/migrations/046-queue-positions';
import { PAYOUT_POSITION_FIGURES } from '../db/migrations/047-payout-positions';
import { executePrepared, reusablePlan } from '../db/prepared-statements';
import type { Database, DisbursementStatus } from '../db/schema';
import type { AnswerScope, AnswerTable } from './answer-cache';
import { escapeLike } from './like';
import {
  type NameQueue,
  type NameWords,
  nameQueueOf,
  nameSearchText,
  nameStarts,
  nameWords,
} from './name-starts';
import { rowCount, sameList, sqlList } from './sql-lists';

/**
 * The back-office search on an application's borrower: name is a case-insensitive "contains" on the trimmed
 * text, phone a "contains" on digits; both must match. As a condition on each row, for a list that walks its
 * own order; the rows are found from the names' word starts (`lib/name-starts.ts`, migration 048) and the
 * queues' phone trigram indexes. `table` is the alias the query gives the applications table.
 */
export function borrowerSearch(
  query: { name: string; phone: string },
  table = 'applications',
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (query.name)
    conditions.push(sql<SqlBool>`lower(${sql.ref(`${table}.full_name`)}) like ${namePattern(query.name)}`);
  if (query.phone)
    conditions.push(sql<SqlBool>`${sql.ref(`${table}.phone`)} like ${`%${escapeLike(query.phone)}%`}`);
  return conditions;
}

/** A name search's pattern: "contains", case aside, its text taken literally. */
const namePattern = (name: string) => `%${escapeLike(nameSearchText(name))}%`;

/**
 * The answer cache's scope of a list answer searched by `query.name` (docs/decisions/067): for a list whose
 * every row, and every count in its answer, is an application matching the search (`borrowerSearch`), none
 * without a name. Not for a list that also counts rows the search does not narrow (the overdue buckets).
 */
export const nameSearchScope = (query: { name: string }): AnswerScope | undefined =>
  query.name ? { borrowerNameContains: nameSearchText(query.name) } : undefined;

/**
 * Applications of `queues` whose borrower's name contains the text of `found` (`nameWords`) and phone
 * `query.phone`, found from the names' word starts (migration 048); the caller adds its conditions and
 * selects the columns (of `applications`).
 */
export function nameMatchedApplications(
  db: Kysely<Database>,
  queues: readonly NameQueue[],
  found: NameWords,
  query: { phone: string },
) {
  let named = db
    .selectFrom(nameStarts(db, queues, found).as('named'))
    .innerJoin('applications', 'applications.id', 'named.id');
  for (const condition of borrowerSearch({ name: '', phone: query.phone })) named = named.where(condition);
  return named;
}

/**
 * A back-office list of applications in one status set, for `searchedListPage`: its keys (`id`, and the
 * `dateColumn` it is ordered by as `at`) from the set's partial index (migration 017: the statuses, in list
 * order, with name and phone included), narrowed by the borrower search. A name is found from its word starts
 * (migration 048): a word's few matching words each read in the list's order (then they are the keys too),
 * else the matches are collected and sorted, or the list's index walked when they are many.
 */
export async function applicationList(
  db: Kysely<Database>,
  statuses: readonly string[],
  dateColumn: 'submitted_at' | 'decided_at',
  query: { name: string; phone: string; page: number },
  broadSearches?: BroadSearches,
) {
  let keys = db
    .selectFrom('applications')
    .where(sql<SqlBool>`applications.status in (${sqlList(statuses)})`)
    .select(['applications.id', `applications.${dateColumn} as at`]);
  const search = borrowerSearch(query);
  for (const condition of search) keys = keys.where(condition);
  const queue = nameQueueOf(statuses);
  // biome-ignore lint/suspicious/noExplicitAny: the name starts' own query
  let matches: (() => SelectQueryBuilder<any, any, { id: string; at: Date | null }>) | undefined;
  const found = queue && query.name ? await nameWords(db, query.name) : undefined;
  if (queue && found) {
    let named = nameStarts(db, [queue], found);
    const phone = borrowerSearch({ name: '', phone: query.phone }, 'a');
    if (phone.length > 0)
      named = named.where((eb) =>
        eb.exists(
          eb
            .selectFrom('applications as a')
            .select(sql`1`.as('one'))
            .whereRef('a.id', '=', 'u.id')
            .where(eb.and(phone)),
        ),
      );
    // A phrase's starts are matches to sort; a word's come in the queue's order, merged: the list's keys,
    // walked as its own index would be.
    if (found.phrase) matches = () => named;
    else keys = named as unknown as typeof keys;
  }
  return {
    keys,
    matches,
    // One range of the starts (one word containing the text, or a phrase whose first part ends one word): the
    // same text for every such search and page. Not with a phone as well: which side to start from (the word's
    // starts, or the phone's few rows) depends on both values, so a plan kept for one pair can be wrong for the
    // next (one "maria" + phone search took 90 ms where the others took 12; not traced to its plan).
    namedMatches: !query.phone && found?.words?.length === 1,
    namedWalks: !query.phone && found?.phrase === false && found.words?.length === 1,
    searched: search.length > 0,
    page: query.page,
    broadSearches,
    positions: queuePositions(statuses, dateColumn),
  };
}

/**
 * Where an unsearched queue's page starts (`ListPositions`): Pending by submission and the running loans
 * (Approved, Loan Servicing) by decision, as migration 046 counts them per hour.
 */
export function queuePositions(
  statuses: readonly string[],
  dateColumn: 'submitted_at' | 'decided_at',
  hourRows = POSITION_ROWS,
): ListPositions | undefined {
  const column = `applications.${dateColumn}`;
  if (sameList(statuses, awaitingDecisionStatuses) && dateColumn === 'submitted_at')
    return hourQueuePositions(QUEUE_POSITION_FIGURES.pending, column, hourRows);
  if (sameList(statuses, runningStatuses) && dateColumn === 'decided_at')
    return hourQueuePositions(QUEUE_POSITION_FIGURES.running, column, hourRows);
  return undefined;
}

/** Approved statuses a loan keeps once it stops running (closed). */
const stoppedStatuses = approvedStatuses.filter((status) => !isRunning(status));

/**
 * Where an unsearched page of the payouts starts (`ListPositions`), all of them or one status: newest request
 * first, as migration 047 counts them per hour of `requested_at`.
 */
export function payoutPositions(status?: DisbursementStatus, hourRows = POSITION_ROWS): ListPositions {
  return hourQueuePositions(PAYOUT_POSITION_FIGURES[status ?? 'all'], 'disbursements.requested_at', hourRows);
}

/**
 * Money moves only on a loan once approved, and no status leads back from there to pending or rejected: a
 * search of payments or payouts looks among those loans only (a common name matches tens of thousands of
 * applications, most never paid out), the ids of those matching the borrower search `query` and
 * `conditions`. A name is found from the word starts of the running and closed loans (migration 048); a phone
 * alone, from each status set's phone trigram index, the running and closed loans asked for apart, each set
 * written as literals exactly as its indexes are declared (migrations 033, 036), so PostgreSQL finds them
 * there and never ANDs a bitmap with every approved loan from the status index.
 */
export function everApprovedLoans(
  db: Kysely<Database>,
  query: { name: string; phone: string },
  conditions: Expression<SqlBool>[] = [],
  /** The name's words (`nameWords`); without them a name is tested on each loan. */
  found?: NameWords,
) {
  if (found && !query.phone && conditions.length === 0)
    return db.selectFrom(nameStarts(db, ['running', 'closed'], found).as('named')).select('named.id');
  if (found) {
    let named = nameMatchedApplications(db, ['running', 'closed'], found, query).select('applications.id');
    for (const condition of conditions) named = named.where(condition);
    return named;
  }
  const loans = (statuses: readonly string[]) => {
    let found = db
      .selectFrom('applications')
      .select('applications.id')
      .where(sql<SqlBool>`applications.status in (${sqlList(statuses)})`);
    for (const condition of [...borrowerSearch(query), ...conditions]) found = found.where(condition);
    return found;
  };
  return loans(runningStatuses).unionAll(loans(stoppedStatuses));
}

/** Rows to skip for a 1-based page. */
export const pageOffset = (page: number) => (page - 1) * PAGE_SIZE;

/**
 * Totals are exact up to this many rows from the first row of the page asked for, then a lower bound shown
 * as "1,000+" (docs/decisions/022): counting further would read every matching row on every page.
 */
export const COUNT_CAP = 1000;

/** How a list orders its keys: column names of the keys query (its last one unique, e.g. the id). */
export type KeyOrder<O> = ReadonlyArray<readonly [keyof O & string, 'asc' | 'desc']>;

/**
 * One page of a back-office list and its capped count in ONE statement, reading only the list's keys: `keys`
 * selects the row id and the columns `order` sorts by (with the list's filters and search, no ORDER BY and
 * no LIMIT); each list has an index that returns exactly that order, so the window below is an index (only)
 * scan of at most offset + COUNT_CAP + 1 entries, never a sort of every match:
 *
 *   select w.*, count(*) over () as window_count
 *   from (keys order by … offset O limit COUNT_CAP + 1) w
 *   order by … limit PAGE_SIZE
 *
 * The caller joins the page's ten keys back to whatever else the rows show (names, sums), so those are read
 * for ten rows, not for the whole window. `cappedTotal` turns `window_count` into the total. A search read by
 * `sorted-matches` collects its matches (up to one past the sort limit) in no order, counts them and keeps the
 * page's top rows (a bounded sort); its window count follows from the match count.
 */
export function pageWindow<DB, O>(
  db: Kysely<DB>,
  // biome-ignore lint/suspicious/noExplicitAny: any list's keys query (its tables and joins are its own)
  keys: SelectQueryBuilder<any, any, O>,
  order: KeyOrder<O>,
  page: number,
  /** How `searchedPage` asks for the page; a list without a search always walks. */
  how: PageRead = 'walk',
  /** How many matches `sorted-matches` sorts at most. */
  sortLimit = SEARCH_SORT_LIMIT,
  /** A walk's offset as a value, so its text is the same for every page (`SearchedList.namedWalks`). */
  offsetAsValue = false,
) {
  // biome-ignore lint/suspicious/noExplicitAny: a derived table of the caller's own columns
  const anyDb = db as unknown as Kysely<any>;
  const offset = pageOffset(page);
  if (how === 'sorted-matches') {
    // All the matches, up to one past the sort limit, counted; the page is the top offset + ten of them (a
    // bounded sort). Where they are all here, the rows from the page on are `match_count - offset`: no second
    // sort of the window to count them, as a walk needs.
    let sorted = anyDb
      // No ORDER BY in here: the planner finds the matches its cheapest way (a range of the name starts).
      .selectFrom(keys.limit(rowCount(sortLimit + 1)).as('m'))
      .modifyFront(reusablePlan)
      .selectAll('m')
      .select(sql<number | string>`count(*) over ()`.as('match_count'))
      // The offset is a value, not part of the text: a search's statement is then one text for every page,
      // which a list may run named (`SearchedList.namedMatches`). A search has values anyway (its terms), so
      // PGlite never kept its plan (decision 028). (A materialized CTE counted by an aggregate instead of the
      // window was slower at 4 clients: 2,700–2,900 against 2,950–3,100 statements a second.)
      .select(
        sql<
          number | string
        >`least(greatest(count(*) over () - ${sql.val(offset)}::bigint, 0), ${sql.lit(COUNT_CAP + 1)})`.as(
          'window_count',
        ),
      );
    for (const [column, direction] of order) sorted = sorted.orderBy(sql.ref(`m.${column}`), direction);
    return sorted
      .offset(sql<number>`${sql.val(offset)}::bigint`)
      .limit(rowCount(PAGE_SIZE)) as unknown as SelectQueryBuilder<
      DB & { w: O },
      'w',
      O & { window_count: number | string; match_count?: number | string }
    >;
  }
  let inner = keys.select(sql<null>`null`.as('match_count')) as unknown as typeof keys;
  for (const [column, direction] of order) inner = inner.orderBy(sql.ref(column), direction);
  // Past the cap, only the page is walked: its count is already known to be more than the cap.
  const pastCap = how === 'walk-past-cap';
  let outer = anyDb
    .selectFrom(
      inner
        .limit(rowCount(pastCap ? PAGE_SIZE : COUNT_CAP + 1))
        .offset(offsetAsValue ? sql<number>`${sql.val(offset)}::bigint` : rowCount(offset))
        .as('w'),
    )
    // The window's counts are written into the text, so a list without a search sends no parameters and
    // PGlite keeps its plan (decision 028).
    .modifyFront(reusablePlan)
    .selectAll('w')
    .select(
      pastCap
        ? sql<number>`${sql.lit(COUNT_CAP + 1)}`.as('window_count')
        : sql<number | string>`count(*) over ()`.as('window_count'),
    );
  for (const [column, direction] of order) outer = outer.orderBy(sql.ref(`w.${column}`), direction);
  return outer.limit(rowCount(PAGE_SIZE)) as unknown as SelectQueryBuilder<
    DB & { w: O },
    'w',
    O & { window_count: number | string; match_count?: number | string }
  >;
}

/**
 * A search sorts at most this many matches itself; beyond that the list walks its index in order. A
 * selective search ("maria santos": a few thousand in a million) is found through its trigram index and
 * sorted, a few milliseconds; walking the list's order index would read hundreds of thousands of entries
 * to collect the page and the capped count. A broad one ("a") is the other way round.
 */
export const SEARCH_SORT_LIMIT = 3000;

/** One search as `BroadSearches` knows it. */
export interface SearchBreadth {
  /** Found to match more than its list sorts, and not longer ago than `BroadSearches` trusts that. */
  known(): boolean;
  remember(): void;
}

/**
 * Searches found moments ago to match more than their list sorts itself (docs/decisions/051). Finding that
 * out collects and counts `sortLimit` + 1 matches (a common name on Payouts: ~100 ms at 1 M loans) only to
 * walk the list's order after all (a few ms); staff repeat a search as they page and come back to it. What
 * is remembered is the decision only, never rows or counts: every answer is still read from the database.
 * Matches shrink only as rows leave a queue or a name is anonymised, never by thousands within `ttlMs`, so
 * the "1,000+" a remembered search shows stays a true lower bound. A search is known by its matches'
 * statement and parameters (every filter in it), per app instance, at most `capacity` of them.
 */
export class BroadSearches {
  readonly #until = new Map<string, number>();

  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
    private readonly capacity = 2000,
  ) {}

  /** `matches` (a list's matches query) as this memory knows it. */
  of(matches: { compile(): { sql: string; parameters: readonly unknown[] } }): SearchBreadth {
    const { sql: text, parameters } = matches.compile();
    const key = `${text}\u0000${JSON.stringify(parameters)}`;
    return {
      known: () => {
        const until = this.#until.get(key);
        if (until === undefined) return false;
        if (until > this.now()) return true;
        this.#until.delete(key);
        return false;
      },
      remember: () => {
        this.#until.delete(key);
        // The oldest remembered first out (a Map keeps insertion order).
        if (this.#until.size >= this.capacity) this.#until.delete(this.#until.keys().next().value!);
        this.#until.set(key, this.now() + this.ttlMs);
      },
    };
  }
}

/**
 * How a list reads one page (`pageWindow`): `walk` follows the list's order index and counts up to
 * `COUNT_CAP` rows past the page; `sorted-matches` finds a search's matches first (at most
 * `SEARCH_SORT_LIMIT` + 1 or the list's own limit, its trigram index) and sorts them; `walk-past-cap` follows the order index for the
 * page's rows only, when more than `COUNT_CAP` matches past the page are already known to exist.
 */
export type PageRead = 'walk' | 'sorted-matches' | 'walk-past-cap';

/**
 * Reads a page (`read(how)`, built on `pageWindow`). With a search, first by sorting its matches; only when
 * there are more than `sortLimit` of them once more by walking the list's order — for the page alone
 * when the matches counted reach past the page's capped count (issue #35: walking a million repayments
 * newest first to count 1,000 matches of "maria" took a second; ten of them are a few hundred entries
 * away). A later page that came back empty says nothing about how many there were: `countMatches`
 * (`matchesUpTo`) then tells a page past the end of a few matches (answered empty at once) from one past the
 * sorted ones.
 */
export async function searchedPage<R extends { match_count?: number | string }>(
  searched: boolean,
  page: number,
  read: (how: PageRead) => Promise<R[]>,
  countMatches?: () => Promise<number>,
  sortLimit = SEARCH_SORT_LIMIT,
  /** This search as `BroadSearches` knows it, where the list keeps one. */
  breadth?: SearchBreadth,
): Promise<R[]> {
  if (!searched) return read('walk');
  // Known to match more than `sortLimit` moments ago: read as the count found then decided.
  if (breadth?.known()) return read(pageOffset(page) + COUNT_CAP < sortLimit + 1 ? 'walk-past-cap' : 'walk');
  const rows = await read('sorted-matches');
  const first = rows[0];
  let matches: number;
  if (first) matches = Number(first.match_count);
  else if (page === 1) return rows;
  else if (countMatches) matches = await countMatches();
  else return read('walk');
  if (matches <= sortLimit) return rows;
  breadth?.remember();
  // `matches` stopped counting one past the sort limit: at least that many exist.
  return read(pageOffset(page) + COUNT_CAP < matches ? 'walk-past-cap' : 'walk');
}

/** The order of every searched list: newest first, the id breaking ties. */
const newestFirst = [
  ['at', 'desc'],
  ['id', 'desc'],
] as const;

export interface SearchedList<K> {
  /** The list's keys (`id` and the columns `order` sorts by) with its filters and search, in no order. */
  // biome-ignore lint/suspicious/noExplicitAny: any list's keys query (its tables and joins are its own)
  keys: SelectQueryBuilder<any, any, K>;
  /** The same rows found from the search's side, where that is not `keys` itself (payments, payouts). */
  // biome-ignore lint/suspicious/noExplicitAny: as keys
  matches?: () => SelectQueryBuilder<any, any, K>;
  searched: boolean;
  page: number;
  /**
   * How many matches the list sorts itself before it walks (default `SEARCH_SORT_LIMIT`): more where the
   * walk costs more per row than collecting the matches does.
   */
  sortLimit?: number;
  /** Where the app remembers broad searches (`BroadSearches`); without it every search counts its matches. */
  broadSearches?: BroadSearches;
  /**
   * The matches' statement has one text whatever the terms and the page (a search read from one range of the
   * name starts): it runs named (`executePrepared`), parsed once per connection instead of on every search.
   */
  namedMatches?: boolean;
  /**
   * The walks too (`walk`, `walk-past-cap`): the keys are one word's starts, an index range already in the
   * list's order whatever the word, so PostgreSQL's generic plan (kept after five runs) is that walk and the
   * statement is no longer planned on every page of a broad word (decision 074).
   */
  namedWalks?: boolean;
  /** How the list orders its keys (default newest first: `at`, then `id`, both descending). */
  order?: KeyOrder<K>;
  /** Where an unsearched page starts and the list's exact total, where the list's rows are counted. */
  positions?: ListPositions;
}

/**
 * A list whose rows are counted by the writes (docs/decisions/069), so an unsearched page is read with its
 * exact total and, deep down, walked from a place the counts point to instead of from the first row.
 */
export interface ListPositions {
  /**
   * One row (`bound`, `skip`) for a page `offset` rows deep: the keys from `bound` on (`from`) hold the page
   * after `skip` rows; exactly `offset - skip` rows come before `bound`. No row, or a null bound: no place
   * to start from (the page is walked).
   */
  start(offset: number): RawBuilder<unknown>;
  /** The keys from `bound` on, in the list's order. */
  from(bound: RawBuilder<unknown>): Expression<SqlBool>;
  /** The list's exact total. */
  total: RawBuilder<number | string>;
  /** Below this offset the page is walked to (default `POSITIONED_FROM`): as cheap as reading the counts. */
  walkBelow?: number;
}

/** Below this offset a counted list walks its index to the page. */
const POSITIONED_FROM = 2000;

/** How many of a list's count rows (per writing shard) a deep page reads at most. */
const POSITION_ROWS = 2000;

/**
 * A queue counted per UTC hour of the column it is ordered by, newest first, with its total (migration 046:
 * `figures` in `queue_counts`). A page starts at the end of the oldest of the newest `hourRows` hour rows
 * with at most its offset of rows before it: any such hour gives the same page (the rows before it are
 * counted exactly), the oldest is the shortest walk. Rows without an order time (part '') come first, as the
 * list sorts them: a page among them has no hour to start from.
 */
function hourQueuePositions(
  figures: { hours: string; total: string },
  column: string,
  hourRows: number,
): ListPositions {
  const hours = sql.lit(figures.hours);
  return {
    start: (offset) => {
      const at = sql.lit(offset);
      return sql`
        select case when ${at} >= u.n then (h.part || ':00:00+00')::timestamptz + interval '1 hour' end as bound,
               greatest(${at} - u.n - h.before, 0) as skip
        from (select coalesce(sum(n), 0) as n from queue_counts where figure = ${hours} and part = '') u,
        lateral (
          select part, sum(sum(n)) over (order by part desc) - sum(n) as before
          from (select part, n from queue_counts where figure = ${hours} and part <> ''
                order by part desc, shard desc limit ${rowCount(hourRows)}) newest
          group by part
        ) h
        where h.before <= ${at} - u.n
        order by h.part limit 1`;
    },
    from: (bound) => sql<SqlBool>`${sql.ref(column)} < ${bound}`,
    total: sql<number | string>`(select coalesce(sum(n), 0) from queue_counts
      where figure = ${sql.lit(figures.total)})`,
  };
}

/**
 * An unsearched page of a counted list (`ListPositions`) and its exact total, in one statement, so the counts,
 * the rows and the total are one snapshot: up to `walkBelow` rows deep the list's index is walked to the page;
 * deeper, from where `start` points, skipping only the rows between there and the page. A page with no place
 * to start from comes back empty, and `searchedListPage` walks instead.
 */
function positionedWindow<DB, O>(
  db: Kysely<DB>,
  // biome-ignore lint/suspicious/noExplicitAny: any list's keys query (its tables and joins are its own)
  keys: SelectQueryBuilder<any, any, O>,
  order: KeyOrder<O>,
  page: number,
  positions: ListPositions,
) {
  // biome-ignore lint/suspicious/noExplicitAny: a derived table of the caller's own columns
  const anyDb = db as unknown as Kysely<any>;
  const offset = pageOffset(page);
  let window: AliasedRawBuilder<unknown, 'w'>;
  if (offset < (positions.walkBelow ?? POSITIONED_FROM)) {
    let inner = keys;
    for (const [column, direction] of order) inner = inner.orderBy(sql.ref(column), direction);
    window = sql`(${inner.offset(rowCount(offset)).limit(rowCount(PAGE_SIZE))})`.as('w');
  } else {
    let inner = keys.where(positions.from(sql`(select bound from list_start)`));
    for (const [column, direction] of order) inner = inner.orderBy(sql.ref(column), direction);
    const rows = inner.offset(sql<number>`(select skip from list_start)`).limit(rowCount(PAGE_SIZE));
    window = sql`(with list_start as materialized (${positions.start(offset)}) ${rows})`.as('w');
  }
  let outer = anyDb
    .selectFrom(window)
    .modifyFront(reusablePlan)
    .selectAll('w')
    .select(positions.total.as('window_count'))
    .select(sql<null>`null`.as('match_count'));
  for (const [column, direction] of order) outer = outer.orderBy(sql.ref(`w.${column}`), direction);
  return outer as unknown as SelectQueryBuilder<
    DB & { w: O },
    'w',
    O & { window_count: number | string; match_count?: number | string }
  >;
}

/**
 * The tables a counted queue's answer reads (`ListPositions`): unsearched, its counts and total from
 * `queue_counts` too; a search reads only `tables` (so a name-scoped answer is not forgotten by every change
 * to the counts, docs/decisions/067).
 */
export const queueReads = (
  tables: readonly AnswerTable[],
  query: { name: string; phone: string; q?: string },
): readonly AnswerTable[] => (query.name || query.phone || query.q ? tables : [...tables, 'queue_counts']);

/** The page's keys as `searchedListPage` hands them to the list, under the alias `page`. */
export type PageKeys<DB, K> = SelectQueryBuilder<
  DB & { page: K & { window_count: number | string; match_count?: number | string } },
  'page',
  // biome-ignore lint/complexity/noBannedTypes: nothing selected yet (Kysely's own empty selection)
  {}
>;

/**
 * One page of a searched back-office list, in its order (newest first unless it says), read the way
 * `searchedPage` chooses, and its capped total. `showPage(page)` joins the page's keys (`page.id`, and the
 * columns it is ordered by) to what the rows show and selects it; the counts the total is read from and the
 * list's order are added here, the same for every list.
 */
export async function searchedListPage<DB, K extends { id: unknown }, O>(
  db: Kysely<DB>,
  list: SearchedList<K>,
  // biome-ignore lint/suspicious/noExplicitAny: the list's own joins
  showPage: (page: PageKeys<DB, K>) => SelectQueryBuilder<any, any, O>,
) {
  const matches = list.matches ?? (() => list.keys);
  const sortLimit = list.sortLimit ?? SEARCH_SORT_LIMIT;
  const order = list.order ?? (newestFirst as unknown as KeyOrder<K>);
  const show = (window: ReturnType<typeof pageWindow<DB, K>>, named = false) => {
    // biome-ignore lint/suspicious/noExplicitAny: a derived table of the list's keys
    const keys = (db as unknown as Kysely<any>).selectFrom(window.as('page')) as PageKeys<DB, K>;
    let page = showPage(keys).select(['page.window_count', 'page.match_count']);
    for (const [column, direction] of order) page = page.orderBy(sql.ref(`page.${column}`), direction);
    return (named ? executePrepared(db, page) : page.execute()) as Promise<
      (O & { window_count: number | string; match_count?: number | string })[]
    >;
  };
  const read = (how: PageRead) =>
    how === 'sorted-matches'
      ? show(pageWindow(db, matches(), order, list.page, how, sortLimit), list.namedMatches)
      : show(pageWindow(db, list.keys, order, list.page, how, sortLimit, list.namedWalks), list.namedWalks);
  if (!list.searched && list.positions) {
    const rows = await show(positionedWindow(db, list.keys, order, list.page, list.positions));
    if (rows[0]) return { rows, counted: { total: Number(rows[0].window_count), totalCapped: false } };
    const { rows: counts } = await sql<{ total: number | string }>`
      select ${list.positions.total} as total`.execute(db);
    const total = Number(counts[0]!.total);
    // Past the end: the exact total says where the end is. Otherwise the page had no place to start from
    // (rows without an order time, a page deeper than the counts read): walk to it.
    const counted = { total, totalCapped: false };
    return { rows: pageOffset(list.page) >= total ? rows : await read('walk'), counted };
  }
  const rows = await searchedPage(
    list.searched,
    list.page,
    read,
    () => matchesUpTo(db, matches(), sortLimit),
    sortLimit,
    list.searched ? list.broadSearches?.of(matches()) : undefined,
  );
  // Read from all its matches, sorted: their count is the search's exact total ("1,431", not "1,000+").
  const matchCount = rows[0]?.match_count;
  if (matchCount !== undefined && matchCount !== null && Number(matchCount) <= sortLimit)
    return { rows, counted: { total: Number(matchCount), totalCapped: false } };
  return { rows, counted: await cappedTotal(db, list.keys, rows[0]?.window_count, list.page) };
}

/** How many rows `matches` finds, counting no further than one past `limit`. */
async function matchesUpTo<DB>(
  db: Kysely<DB>,
  // biome-ignore lint/suspicious/noExplicitAny: any list's matches query
  matches: SelectQueryBuilder<any, any, unknown>,
  limit: number,
): Promise<number> {
  // biome-ignore lint/suspicious/noExplicitAny: a derived table
  const { count } = await (db as unknown as Kysely<any>)
    .selectFrom(matches.limit(rowCount(limit + 1)).as('m'))
    .select(sql<string>`count(*)`.as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The page's total: exact when the window held all the rest, else a lower bound flagged `totalCapped`. */
export async function cappedTotal<DB>(
  db: Kysely<DB>,
  // biome-ignore lint/suspicious/noExplicitAny: any list's keys query (its tables and joins are its own)
  keys: SelectQueryBuilder<any, any, unknown>,
  windowCount: number | string | undefined,
  page: number,
): Promise<{ total: number; totalCapped: boolean }> {
  if (windowCount !== undefined) {
    const counted = Number(windowCount);
    return { total: pageOffset(page) + Math.min(counted, COUNT_CAP), totalCapped: counted > COUNT_CAP };
  }
  if (page === 1) return { total: 0, totalCapped: false };
  // A page past the end (a stale link, rows gone meanwhile): the window was empty, so say where the end
  // is. Rare, and it reads no more entries than the offset scan that found nothing.
  // biome-ignore lint/suspicious/noExplicitAny: a derived table
  const { count } = await (db as unknown as Kysely<any>)
    .selectFrom(keys.limit(pageOffset(page) + 1).as('k'))
    .select(sql<string>`count(*)`.as('count'))
    .executeTakeFirstOrThrow();
  return { total: Number(count), totalCapped: false };
}

/** The shape every back-office list answers with. */
export function toPage<T>(items: T[], counted: { total: number; totalCapped: boolean }, page: number) {
  return {
    items,
    page,
    pageSize: PAGE_SIZE,
    total: counted.total,
    totalCapped: counted.totalCapped,
    pageCount: Math.max(1, Math.ceil(counted.total / PAGE_SIZE)),
  };
}
