import { type Kysely, sql } from 'kysely';

/**
 * Each user's language (issue #36): everything the server sends them (codes, reminders, complaint replies)
 * is written in it. Chosen at sign-up from the screen's language and changed when they switch language;
 * accounts from before read English, which is all they were ever sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users add column language text not null default 'en'
    check (language in ('en', 'fil', 'zh', 'km'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column language`.execute(db);
}
