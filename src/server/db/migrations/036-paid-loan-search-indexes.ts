import { type Kysely, sql } from 'kysely';

/**
 * A name or phone search on Payouts or Repayments looks among loans ever approved (`everApprovedLoans`,
 * `lib/paging.ts`) and finds them through a trigram index of those rows only (issue #35). With the
 * whole-table indexes (migration 003) PostgreSQL ANDed the name's matches with a bitmap of every loan ever
 * approved from the status index (400,000 entries at 1 M applications: 55–160 ms of a 358 ms "maria" on
 * Payouts), or, fenced off from it, read the heap rows of every pending and rejected namesake. The predicate
 * is written exactly as `approvedStatuses` is written into the search (`lib/sql-lists.ts` literals), so the
 * planner matches it; the running queue keeps its own narrower indexes (migration 033).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index applications_approved_name_trgm on applications
    using gin (lower(full_name) gin_trgm_ops) where status in ('approved', 'on_hold', 'closed')`.execute(db);
  await sql`
    create index applications_approved_phone_trgm on applications
    using gin (phone gin_trgm_ops) where status in ('approved', 'on_hold', 'closed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_approved_phone_trgm`.execute(db);
  await sql`drop index applications_approved_name_trgm`.execute(db);
}
