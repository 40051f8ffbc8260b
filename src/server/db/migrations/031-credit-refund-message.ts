import { type Kysely, sql } from 'kysely';

/**
 * Money sent back to the borrower (a refund of what they paid above a loan) is told to them by SMS like every
 * other money that moves (issue #36): the outbox takes its kind, `credit_refunded`.
 */
const kindsBefore = sql`(
  'before_due', 'due', 'overdue',
  'application_approved', 'application_declined', 'payout_paid', 'payout_failed', 'terms_proposed',
  'payment_received', 'payment_reversed', 'loan_closed', 'complaint_reply', 'complaint_resolved')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table loan_reminders
      drop constraint loan_reminders_kind,
      add constraint loan_reminders_kind check (kind in (
        'before_due', 'due', 'overdue',
        'application_approved', 'application_declined', 'payout_paid', 'payout_failed', 'terms_proposed',
        'payment_received', 'payment_reversed', 'loan_closed', 'credit_refunded',
        'complaint_reply', 'complaint_resolved'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from loan_reminders where kind = 'credit_refunded'`.execute(db);
  await sql`
    alter table loan_reminders
      drop constraint loan_reminders_kind,
      add constraint loan_reminders_kind check (kind in ${kindsBefore})`.execute(db);
}
