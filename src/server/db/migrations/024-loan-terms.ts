import { type Kysely, sql } from 'kysely';

/**
 * Every loan keeps the terms that priced it (issue #31, docs/decisions/033): `terms` holds the snapshot of
 * `LoanTerms` (rate, fees and how they are taken, late charge, grace days, rounding) written at signing; the
 * replay and every figure read it instead of the server's settings. Its rate must be the loan's
 * `monthly_rate_bp`, the column lists and SQL read.
 *
 * `overdue_from` is one more stored fact (docs/decisions/012): the first day the oldest unpaid instalment is
 * overdue (its due date + the loan's grace days + 1), so the overdue queue, the dashboard and PAR count
 * "overdue" as the loan page does, by each loan's own grace.
 *
 * Rows signed before this migration get their snapshot at start-up (`backfillLoanTerms`), from the settings
 * in force then, which a migration cannot read.
 *
 * Money paid ahead now stops being owed the day it arrives (issue #31, docs/decisions/035): no principal is
 * "held" until a due date any more. The one step the outstanding principal can still take by itself is the
 * other way: on the next due date, principal paid ahead that the instalment's interest needs becomes a
 * payment of that interest, and is owed again (`principal_step_minor` from `principal_step_on`). The held
 * columns are renamed to say so.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table applications
      add column terms jsonb,
      add column overdue_from date,
      add constraint applications_terms_rate
        check (terms is null or (terms->>'monthlyRateBp')::integer = monthly_rate_bp)`.execute(db);
  await sql`drop index applications_overdue_queue_idx`.execute(db);
  await sql`
    create index applications_overdue_queue_idx
    on applications (next_due_on, loan_number, id) include (full_name, phone, overdue_from)
    where status in ('approved', 'on_hold') and next_due_on is not null`.execute(db);
  await sql`drop index applications_portfolio_idx`.execute(db);
  await sql`alter table applications rename column held_principal_minor to principal_step_minor`.execute(db);
  await sql`alter table applications rename column held_applies_on to principal_step_on`.execute(db);
  await sql`
    create index applications_portfolio_idx
    on applications (next_due_on)
    include (outstanding_principal_minor, principal_step_minor, principal_step_on, overdue_from)
    where status in ('approved', 'on_hold') and facts_as_of is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_portfolio_idx`.execute(db);
  await sql`alter table applications rename column principal_step_minor to held_principal_minor`.execute(db);
  await sql`alter table applications rename column principal_step_on to held_applies_on`.execute(db);
  await sql`
    create index applications_portfolio_idx
    on applications (next_due_on)
    include (outstanding_principal_minor, held_principal_minor, held_applies_on)
    where status in ('approved', 'on_hold') and facts_as_of is not null`.execute(db);
  await sql`drop index applications_overdue_queue_idx`.execute(db);
  await sql`
    create index applications_overdue_queue_idx
    on applications (next_due_on, loan_number, id) include (full_name, phone)
    where status in ('approved', 'on_hold') and next_due_on is not null`.execute(db);
  await sql`
    alter table applications
      drop constraint applications_terms_rate,
      drop column overdue_from,
      drop column terms`.execute(db);
}
