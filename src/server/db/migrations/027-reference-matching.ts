import { type Kysely, sql } from 'kysely';

/**
 * Reference matching that forgives formatting (issue #32, docs/decisions/038).
 *
 * A provider payment whose references name more than one loan is kept for finance as
 * `ambiguous_reference` (nothing is applied by a guess).
 *
 * Unapplied payments suggest a loan by amount and date: a running loan whose oldest unpaid instalment (the
 * stored facts, docs/decisions/012) leaves exactly the payment's amount and falls due near its date. This
 * index finds those loans by one equality and one range, without reading the book.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table unapplied_payments drop constraint unapplied_payments_reason_check`.execute(db);
  await sql`
    alter table unapplied_payments add constraint unapplied_payments_reason_check check (
      reason in ('unknown_reference', 'loan_not_running', 'before_payout', 'over_payment', 'reference_conflict',
        'ambiguous_reference')
      and (reason = 'reference_conflict') = (earlier_amount is not null)
    )`.execute(db);
  await sql`
    create index applications_due_amount_idx
    on applications (next_due_minor, next_due_on)
    where status in ('approved', 'on_hold') and next_due_on is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_due_amount_idx`.execute(db);
  await sql`alter table unapplied_payments drop constraint unapplied_payments_reason_check`.execute(db);
  await sql`
    alter table unapplied_payments add constraint unapplied_payments_reason_check check (
      reason in ('unknown_reference', 'loan_not_running', 'before_payout', 'over_payment', 'reference_conflict')
      and (reason = 'reference_conflict') = (earlier_amount is not null)
    )`.execute(db);
}
