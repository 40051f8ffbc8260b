import { type Kysely, sql } from 'kysely';

/**
 * A name or phone search on Payouts or Repayments looks among loans ever approved: the running ones through
 * their queue's trigram indexes (migration 033) and the closed ones through these (`everApprovedLoans`,
 * `lib/paging.ts`; issue #35). With the whole-table indexes (migration 003) PostgreSQL ANDed the name's
 * matches with a bitmap of every loan ever approved from the status index (400,000 entries at 1 M
 * applications: 55–160 ms of a 358 ms "maria" on Payouts). One index over all three statuses instead was
 * taken by the running queue's own search too, ANDed with the status bitmap again (5 → 53 ms for a full
 * name): a closed-only index cannot serve it. The predicate is written as the search writes it (literals).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index applications_closed_name_trgm on applications
    using gin (lower(full_name) gin_trgm_ops) where status in ('closed')`.execute(db);
  await sql`
    create index applications_closed_phone_trgm on applications
    using gin (phone gin_trgm_ops) where status in ('closed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_closed_phone_trgm`.execute(db);
  await sql`drop index applications_closed_name_trgm`.execute(db);
}
