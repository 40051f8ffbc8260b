import { type Kysely, sql } from 'kysely';
import { ANSWER_TABLES } from './020-answer-change-notify';

/**
 * Migration 020's announcements name the table that changed, so that each instance forgets only the
 * back-office answers reading it (docs/decisions/043) instead of all of them. A transaction changing three
 * tables sends three notices (PostgreSQL still folds the same one sent twice). An instance of an older
 * version takes any payload as '' (it ignores it: everything goes), and a newer one takes '' the same way.
 *
 * The dashboard's figures (migration 032) announce too: the dashboard reads them, and although the app
 * changes them only with the rows they count, an operator re-running their backfill changes them alone.
 */
export const ANNOUNCING_TABLES = [...ANSWER_TABLES, 'dashboard_figures'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function hiram_notify_answers_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('hiram_answers', TG_TABLE_NAME);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger dashboard_figures_answers_changed
    after insert or update or delete or truncate on dashboard_figures
    for each statement execute function hiram_notify_answers_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger dashboard_figures_answers_changed on dashboard_figures`.execute(db);
  await sql`
    create or replace function hiram_notify_answers_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('hiram_answers', '');
      return null;
    end $$`.execute(db);
}
