import { type Kysely, sql } from 'kysely';

/**
 * Stored loan facts (issue #10, docs/decisions/012): a cache of `deriveLoanPosition` on the loan row, written
 * in the same transaction as every money event (`loans/refresh-loan-facts.ts`), so the overdue queue and the
 * portfolio figures are SQL over the whole book. They stay true as days pass (see `deriveLoanFacts`):
 *   outstanding principal today = outstanding_principal_minor
 *                                 − (held_principal_minor when held_applies_on <= today)
 *   days past due today         = today − next_due_on when next_due_on < today, else 0
 *   unpaid_instalments          = [[due date, unpaid], …] of every instalment not fully paid, oldest first:
 *                                 due and unpaid today = those due by today, the next due date = the first after
 * The status lists in the index predicates are `runningStatuses` (approved, on hold): the queries write the
 * same literals with lib/sql-lists.ts, so the planner matches them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table applications
      add column outstanding_principal_minor bigint not null default 0
        check (outstanding_principal_minor >= 0),
      add column next_due_on date,
      add column next_due_minor bigint check (next_due_minor >= 0),
      add column held_principal_minor bigint not null default 0,
      add column held_applies_on date,
      add column facts_as_of date,
      add column unpaid_instalments jsonb not null default '[]',
      add constraint applications_next_due check ((next_due_on is null) = (next_due_minor is null))`.execute(
    db,
  );

  // The overdue queue: most days past due first = oldest next_due_on first, then loan number; the search
  // columns ride along so a page, its count and the bucket counts read only this index.
  await sql`
    create index applications_overdue_queue_idx
    on applications (next_due_on, loan_number, id) include (full_name, phone)
    where status in ('approved', 'on_hold') and next_due_on is not null`.execute(db);
  // The portfolio figures: outstanding principal, overdue beyond grace and PAR30, from one narrow index.
  await sql`
    create index applications_portfolio_idx
    on applications (next_due_on)
    include (outstanding_principal_minor, held_principal_minor, held_applies_on)
    where status in ('approved', 'on_hold') and facts_as_of is not null`.execute(db);
  // Collected this month: repayments by the day received, with the id for the reversal anti-join.
  await sql`create index repayments_received_idx on repayments (received_on, id) include (amount)`.execute(
    db,
  );

  // Loans whose facts must be (re)computed outside a money event: every loan paid out before this
  // migration. The app drains it at start-up in batches (backfillLoanFacts), so it needs the configured
  // time zone and rules, which a migration does not have.
  await sql`create table loan_facts_stale (application_id uuid primary key references applications (id))`.execute(
    db,
  );
  await sql`
    insert into loan_facts_stale (application_id)
    select distinct application_id from disbursements where status = 'paid'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table loan_facts_stale`.execute(db);
  await sql`drop index repayments_received_idx`.execute(db);
  await sql`drop index applications_portfolio_idx`.execute(db);
  await sql`drop index applications_overdue_queue_idx`.execute(db);
  await sql`
    alter table applications
      drop constraint applications_next_due,
      drop column outstanding_principal_minor,
      drop column next_due_on,
      drop column next_due_minor,
      drop column held_principal_minor,
      drop column held_applies_on,
      drop column facts_as_of,
      drop column unpaid_instalments`.execute(db);
}
