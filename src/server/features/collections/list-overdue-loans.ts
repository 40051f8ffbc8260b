import { type Expression, type SqlBool, sql } from 'kysely';
import { addDays, daysBetween } from '../../../domain/loan/calendar';
import {
  type OverdueBucket,
  type OverdueListItem,
  type OverdueListQuery,
  type OverduePage,
  overdueBuckets,
} from '../../../domain/schemas/portfolio';
import { OVERDUE_PAIRS } from '../../db/migrations/046-queue-positions';
import { reusablePlan } from '../../db/prepared-statements';
import type { AppDeps } from '../../deps';
import { today as todayOf } from '../../lib/clock';
import { loanNumberMatchesSql } from '../../lib/loan-number-search';
import { nameWords } from '../../lib/name-starts';
import {
  borrowerSearch,
  type ListPositions,
  nameMatchedApplications,
  searchedListPage,
  toPage,
} from '../../lib/paging';
import { dateLiteral, rowCount } from '../../lib/sql-lists';
import { outstandingPrincipalSql, overdueOnSql, unpaidRunningLoanSql } from '../../loans/loan-facts-sql';

/** Due dates (inclusive) whose days past due on `today` fall in a bucket; `from` null = no lower bound. */
function bucketRange(bucket: OverdueBucket, today: string): { from: string | null; to: string } {
  const [low, high] = { '1-30': [1, 30], '31-60': [31, 60], '61-90': [61, 90], '90+': [91, null] }[
    bucket
  ] as [number, number | null];
  return { from: high === null ? null : addDays(today, -high), to: addDays(today, -low) };
}

/** The loans a bucket holds, as a range of due dates (the overdue index's order). */
function inBucket(bucket: OverdueBucket, today: string): Expression<SqlBool> {
  const { from, to } = bucketRange(bucket, today);
  return from === null
    ? sql<SqlBool>`applications.next_due_on <= ${dateLiteral(to)}`
    : sql<SqlBool>`applications.next_due_on between ${dateLiteral(from)} and ${dateLiteral(to)}`;
}

/**
 * The overdue queue: running loans (approved, on hold) with an instalment unpaid beyond its due date and the
 * loan's grace days, most days past due first, then by loan number. Which loans, their order, the total and the bucket counts come
 * from the stored facts by SQL, over one partial index (docs/decisions/012); the figures of the page's loans
 * (what is due and unpaid today, the next due date, the outstanding principal) are read from the same facts,
 * which the API tests check against a replay of each loan.
 */
export async function listOverdueLoans(deps: AppDeps, query: OverdueListQuery): Promise<OverduePage> {
  const [page, buckets] = await Promise.all([listOverduePage(deps, query), countOverdueBuckets(deps)]);
  return { ...page, ...buckets };
}

/**
 * Overdue: the oldest unpaid instalment is past its due date and the loan's grace days. The due-date bound
 * is implied by it (grace ≥ 0) and keeps the scan to the index's range.
 */
function overdueOn(today: string) {
  return [
    unpaidRunningLoanSql(),
    sql<SqlBool>`applications.next_due_on < ${dateLiteral(today)}`,
    overdueOnSql(today),
  ];
}

function pastDueLoans(deps: AppDeps, today: string) {
  let loans = deps.db.selectFrom('applications');
  for (const condition of overdueOn(today)) loans = loans.where(condition);
  return loans;
}

/**
 * How many loans each days-past-due bucket holds, over the whole queue whatever is searched, exactly: the
 * running loans counted per (due date, overdue-from day) pair (migration 046), each pair in the bucket of its
 * due date when its second day has come — the queue's own conditions (`overduePositions`). One read of the
 * pairs (a few per due date), where counting the loans read up to 1,001 index entries a bucket and stopped
 * at "1,000+". Apart from the page, so that the answer cache keeps a searched page across changes to other
 * borrowers (docs/decisions/067).
 */
export async function countOverdueBuckets(
  deps: AppDeps,
): Promise<Pick<OverduePage, 'buckets' | 'bucketsCapped'>> {
  const today = todayOf(deps);
  // Today and the buckets' bounds are written in as literals: the statement sends no parameters, and PGlite
  // keeps its plan (docs/decisions/028).
  const counts = await deps.db
    .selectNoFrom(overdueBuckets.map((bucket) => overduePositions(today, bucket).total.as(bucket)))
    .modifyFront(reusablePlan)
    .executeTakeFirstOrThrow();
  const perBucket = <T>(f: (bucket: OverdueBucket) => T) =>
    Object.fromEntries(overdueBuckets.map((bucket) => [bucket, f(bucket)])) as Record<OverdueBucket, T>;
  return { buckets: perBucket((bucket) => Number(counts[bucket])), bucketsCapped: perBucket(() => false) };
}

/** Rows (per writing shard) of the due-date pairs a deep overdue page reads at most. */
const PAIR_ROWS = 2000;

/**
 * The unsearched overdue queue's positions (`ListPositions`, docs/decisions/069) from migration 046's pairs of
 * days: on `today` a pair's loans are in the queue when their due date is before today, within the bucket's
 * due dates, and the day they become overdue has come — the queue's own conditions (`overdueOn`,
 * `inBucket`), on the pair's two days. A page starts at the oldest due date among the first `pairRows` pairs
 * with at most its offset of queued loans before it.
 */
export function overduePositions(today: string, bucket?: OverdueBucket, pairRows = PAIR_ROWS): ListPositions {
  const range = bucket ? bucketRange(bucket, today) : { from: null, to: addDays(today, -1) };
  const figure = sql.lit(OVERDUE_PAIRS);
  // Parts are 'due/overdue-from', so a part sorts by its due date first; due dates up to `to` inclusive.
  const inRange = sql<SqlBool>`part >= ${sql.lit(range.from ?? '')} and part < ${sql.lit(addDays(range.to, 1))}`;
  const queued = sql<SqlBool>`right(part, 10) <= ${sql.lit(today)}`;
  return {
    start: (offset) => {
      const at = sql.lit(offset);
      return sql`
        select d.due::date as bound, ${at} - d.before as skip
        from (
          select due, sum(queued) over (order by due) - queued as before
          from (
            select left(part, 10) as due, coalesce(sum(n) filter (where ${queued}), 0) as queued
            from (select part, n from queue_counts where figure = ${figure} and ${inRange}
                  order by part, shard limit ${rowCount(pairRows)}) first_pairs
            group by left(part, 10)
          ) g
        ) d
        where d.before <= ${at}
        order by d.due desc limit 1`;
    },
    from: (bound) => sql<SqlBool>`applications.next_due_on >= ${bound}`,
    total: sql<number | string>`(select coalesce(sum(n), 0) from queue_counts
      where figure = ${figure} and ${inRange} and ${queued})`,
  };
}

/** One page of the overdue queue, with its search and bucket filter (the bucket counts apart). */
export async function listOverduePage(
  deps: AppDeps,
  query: OverdueListQuery,
  /** How an unsearched page is placed (`overduePositions` unless the tests say). */
  positioned?: ListPositions,
): Promise<Omit<OverduePage, 'buckets' | 'bucketsCapped'>> {
  const today = todayOf(deps);
  const filters: Expression<SqlBool>[] = [];
  // The loan number written any way (HL26000002, hl-26-2, 000002): from the index's own column.
  if (query.q) filters.push(loanNumberMatchesSql('applications.loan_number', query.q) as Expression<SqlBool>);
  if (query.bucket) filters.push(inBucket(query.bucket, today));

  const search = borrowerSearch(query);
  let filtered = pastDueLoans(deps, today);
  for (const condition of [...search, ...filters]) filtered = filtered.where(condition);
  const keys = filtered.select(['applications.id', 'applications.next_due_on', 'applications.loan_number']);
  // A name with a space (a full name: few loans) is found from the running loans' word starts (migration
  // 048), then the overdue ones among them. One word ("elena": 20,000 running loans at 1 M, 5 % of them
  // overdue) walks the queue's index, testing each overdue loan's name: collecting its overdue matches would
  // read every one of those loans.
  const found = query.name.includes(' ') ? await nameWords(deps.db, query.name) : undefined;
  const matches = found
    ? () => {
        let named = nameMatchedApplications(deps.db, ['running'], found, query);
        for (const condition of [...overdueOn(today), ...filters]) named = named.where(condition);
        return named.select(['applications.id', 'applications.next_due_on', 'applications.loan_number']);
      }
    : undefined;
  // The page's keys and the capped total from the index alone (deep pages skip index entries, not table
  // rows), then the page's rows, read as `searchedPage` chooses. Today and the bucket's bounds are literals:
  // without a search the statement sends no parameters, and PGlite keeps its plan (docs/decisions/028).
  const { rows, counted } = await searchedListPage(
    deps.db,
    {
      keys,
      matches,
      // A phone alone walks the queue's index in its order, testing each loan: it holds the loans past due
      // only (5 % of the running ones at 1 M). Letting PostgreSQL pick between that and the running loans'
      // trigram index was tried (session 28): its estimate of a "contains" is the same for every text, and
      // it took the trigram way for "reye" (20 k candidates: 25 ms against 7.5).
      searched: matches !== undefined,
      page: query.page,
      // Unsearched, the exact total and deep pages from the pairs of days; the loan number "contains"
      // narrows what they count.
      positions:
        search.length === 0 && !query.q ? (positioned ?? overduePositions(today, query.bucket)) : undefined,
      broadSearches: deps.broadSearches,
      order: [
        ['next_due_on', 'asc'],
        ['loan_number', 'asc'],
      ],
    },
    (page) =>
      page
        .innerJoin('applications as a', 'a.id', 'page.id')
        .select(['a.id', 'a.loan_number', 'a.full_name', 'a.phone', 'a.status', 'a.unpaid_instalments'])
        .select(sql<string>`a.next_due_on::text`.as('next_due_on'))
        .select(outstandingPrincipalSql(today, 'a').as('outstanding')),
  );
  const items: OverdueListItem[] = rows.map((row) => {
    const daysPastDue = daysBetween(row.next_due_on, today);
    const unpaid = row.unpaid_instalments;
    return {
      id: row.id,
      loanNumber: row.loan_number,
      fullName: row.full_name,
      phone: row.phone,
      status: row.status,
      overdueSince: row.next_due_on,
      daysPastDue,
      overdueMinor: unpaid.filter(([dueOn]) => dueOn <= today).reduce((sum, [, minor]) => sum + minor, 0),
      outstandingPrincipalMinor: Number(row.outstanding),
      nextDueDate: unpaid.find(([dueOn]) => dueOn > today)?.[0] ?? null,
    };
  });
  return toPage(items, counted, query.page);
}
