import { type Kysely, sql } from 'kysely';

/**
 * Each instance keeps a back-office answer (a list page, the dashboard's figures) for a moment
 * (docs/decisions/030). Any change to a table such an answer reads tells every instance listening on
 * `hiram_answers` to read again. One statement-level trigger per table: a statement that changes a
 * thousand rows announces once, and PostgreSQL folds the same notice sent twice in one transaction into
 * one. Triggers, so that no write path can forget it (the app's use cases, a scheduled job, another
 * instance, an operator's SQL); a notice leaves at commit, and only if the transaction commits.
 *
 * Tables no back-office answer reads (sessions, codes, rate counters, second factors, documents, consents,
 * borrower notices, reminders) are left out: they change often and would empty it for nothing.
 * `lib/answer-cache.api.test.ts` names every table one way or the other, and checks that every cached
 * route reads only tables listed here.
 */
export const ANSWER_TABLES = [
  'account_closures',
  'applications',
  'audit_events',
  'complaint_replies',
  'complaints',
  'disbursements',
  'login_throttle',
  'repayment_reversals',
  'repayments',
  // The pending, approved and servicing lists say when a change of terms awaits the borrower.
  'terms_changes',
  'unapplied_payments',
  'users',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function hiram_notify_answers_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('hiram_answers', '');
      return null;
    end $$`.execute(db);
  for (const table of ANSWER_TABLES) {
    await sql`
      create trigger ${sql.id(`${table}_answers_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function hiram_notify_answers_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ANSWER_TABLES) {
    await sql`drop trigger ${sql.id(`${table}_answers_changed`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function hiram_notify_answers_changed()`.execute(db);
}
