import { type Kysely, sql } from 'kysely';

/**
 * Searches of Repayments, Payouts and the overdue queue at 1 M applications (issue #35), measured with
 * pg_stat_statements under the mixed staff workload, where they were half of PostgreSQL's time:
 * - a name search of Repayments or Payouts finds the matching loans, then each loan's payments through its
 *   loan's index; the index lacked the row id, so every loan cost a heap visit (714 loans for "ana cruz":
 *   10 ms of 21). With the id (and a payout's status, which its filter reads) in the index they are read from
 *   it alone: 21 → 10 ms and 10 → 7 ms;
 * - a loan number typed with its prefix ("HL26079198") is a prefix of the stored number once the dashes are
 *   gone (the rest of a number is digits), so it is found in a btree of that text (`lib/loan-number-search`),
 *   not through trigrams every loan number shares ("HL2", "L26": 7 ms → 0.2 ms);
 * - the overdue queue's index carries the lower-cased name its search compares, instead of lower-casing
 *   every overdue borrower's name on each search (51,000 at 1 M: 9 → 7 ms). The name itself stays in it:
 *   PostgreSQL reads a row from an index alone only when every column an expression uses is there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index repayments_application_idx`.execute(db);
  await sql`create index repayments_application_idx on repayments (application_id, created_at) include (id)`.execute(
    db,
  );
  await sql`drop index disbursements_application_idx`.execute(db);
  await sql`
    create index disbursements_application_idx on disbursements (application_id, requested_at desc)
    include (id, status)`.execute(db);
  await sql`
    create index applications_loan_number_prefix on applications
    (replace(loan_number, '-', '') text_pattern_ops)`.execute(db);
  await sql`drop index applications_overdue_queue_idx`.execute(db);
  await sql`
    create index applications_overdue_queue_idx
    on applications (next_due_on, loan_number, id, lower(full_name)) include (full_name, phone, overdue_from)
    where status in ('approved', 'on_hold') and next_due_on is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_overdue_queue_idx`.execute(db);
  await sql`
    create index applications_overdue_queue_idx
    on applications (next_due_on, loan_number, id) include (full_name, phone, overdue_from)
    where status in ('approved', 'on_hold') and next_due_on is not null`.execute(db);
  await sql`drop index applications_loan_number_prefix`.execute(db);
  await sql`drop index disbursements_application_idx`.execute(db);
  await sql`create index disbursements_application_idx on disbursements (application_id, requested_at desc)`.execute(
    db,
  );
  await sql`drop index repayments_application_idx`.execute(db);
  await sql`create index repayments_application_idx on repayments (application_id, created_at)`.execute(db);
}
