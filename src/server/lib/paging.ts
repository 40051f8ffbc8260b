import { type Expression, type SqlBool, sql } from 'kysely';
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

/** The shape every back-office list answers with. */
export function toPage<T>(items: T[], total: number | string, page: number) {
  const count = Number(total);
  return {
    items,
    page,
    pageSize: PAGE_SIZE,
    total: count,
    pageCount: Math.max(1, Math.ceil(count / PAGE_SIZE)),
  };
}
