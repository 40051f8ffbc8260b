import { type Kysely, sql } from 'kysely';

/**
 * Every back-office list reads its page's keys and a capped count from ONE index that returns the list's
 * order directly (docs/decisions/022), so neither a page, a deep page nor the count ever sorts or visits the
 * table for rows it does not show. A queue filtered by a set of statuses gets a partial index on exactly that
 * set (written as literals, as the queries write them with lib/sql-lists.ts, so the planner matches it); the
 * search columns are included so a name/phone search filters inside the same index-only scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Pending (awaitingDecisionStatuses), newest submission first.
  await sql`
    create index applications_pending_queue_idx
    on applications (submitted_at desc, id desc) include (full_name, phone)
    where status in ('pending')`.execute(db);
  // Approved and Loan Servicing (runningStatuses), newest decision first: `status in (…)` over the old
  // (status, decided_at, id) index needed a merge of two ranges and a sort of every running loan.
  await sql`
    create index applications_running_queue_idx
    on applications (decided_at desc, id desc) include (full_name, phone)
    where status in ('approved', 'on_hold')`.execute(db);
  // Users, newest first, with the phone for the search; the phone "contains" search by trigrams.
  await sql`create index users_list_idx on users (created_at desc, id desc) include (phone)`.execute(db);
  await sql`create index users_phone_trgm on users using gin (phone gin_trgm_ops)`.execute(db);
  // Repayments and the audit log, newest first.
  await sql`create index repayments_list_idx on repayments (created_at desc, id desc)`.execute(db);
  await sql`create index audit_events_list_idx on audit_events (at desc, id desc)`.execute(db);
  // Superseded: the list index above returns the same order with the id.
  await sql`drop index audit_events_at_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index audit_events_at_idx on audit_events (at desc)`.execute(db);
  await sql`drop index audit_events_list_idx`.execute(db);
  await sql`drop index repayments_list_idx`.execute(db);
  await sql`drop index users_phone_trgm`.execute(db);
  await sql`drop index users_list_idx`.execute(db);
  await sql`drop index applications_running_queue_idx`.execute(db);
  await sql`drop index applications_pending_queue_idx`.execute(db);
}
