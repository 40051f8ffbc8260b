import { type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { PAGE_SIZE } from '../../domain/schemas/staff';
import { escapeLike } from './like';

/**
 * The back-office search on an application's borrower: name is a case-insensitive "contains" on the trimmed
 * text, phone a "contains" on digits; both must match. Trigram indexes on lower(full_name) and phone back
 * both at any table size. `table` is the alias the query gives the applications table.
 */
export function borrowerSearch(
  query: { name: string; phone: string },
  table = 'applications',
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (query.name) {
    conditions.push(
      sql<SqlBool>`lower(${sql.ref(`${table}.full_name`)}) like ${`%${escapeLike(query.name.toLowerCase())}%`}`,
    );
  }
  if (query.phone)
    conditions.push(sql<SqlBool>`${sql.ref(`${table}.phone`)} like ${`%${escapeLike(query.phone)}%`}`);
  return conditions;
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
 * for ten rows, not for the whole window. `cappedTotal` turns `window_count` into the total.
 */
export function pageWindow<DB, O>(
  db: Kysely<DB>,
  // biome-ignore lint/suspicious/noExplicitAny: any list's keys query (its tables and joins are its own)
  keys: SelectQueryBuilder<any, any, O>,
  order: KeyOrder<O>,
  page: number,
) {
  let inner = keys;
  for (const [column, direction] of order) inner = inner.orderBy(sql.ref(column), direction);
  // biome-ignore lint/suspicious/noExplicitAny: a derived table of the caller's own columns
  let outer = (db as unknown as Kysely<any>)
    .selectFrom(
      inner
        .limit(COUNT_CAP + 1)
        .offset(pageOffset(page))
        .as('w'),
    )
    .selectAll('w')
    .select(sql<number | string>`count(*) over ()`.as('window_count'));
  for (const [column, direction] of order) outer = outer.orderBy(sql.ref(`w.${column}`), direction);
  return outer.limit(PAGE_SIZE) as unknown as SelectQueryBuilder<
    DB & { w: O },
    'w',
    O & { window_count: number | string }
  >;
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
